package emulator

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tablestress/tablestress/pkg/emulator/model"
)

// AZURITE_ACCOUNTS' form reads as Azurite reads it; what does not read is
// refused naming the entry, never a key.
func TestParseAccounts(t *testing.T) {
	got, err := ParseAccounts(" acct1:a2V5MQ==:a2V5Mg==;acct2:a2V5Mw==; ")
	if err != nil || len(got) != 2 || got[0] != (Account{"acct1", "a2V5MQ==", "a2V5Mg=="}) || got[1] != (Account{"acct2", "a2V5Mw==", ""}) {
		t.Errorf("got %+v, %v", got, err)
	}
	for _, bad := range []string{"", ";", "acct1", "acct1:k1:k2:k3", ":a2V5MQ==", "a:a2V5MQ==;a:a2V5MQ==", "a:not base64"} {
		_, err := ParseAccounts(bad)
		if !errors.Is(err, ErrAccounts) || strings.Contains(err.Error(), "a2V5") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// Several accounts on one address: each sees its own tables, takes either
// of its keys, and the development account is served no more (Azurite's
// accounts replace it).
func TestAccountsServedApart(t *testing.T) {
	ctx := context.Background()
	in := startServer(t, Config{Model: model.Off(), Accounts: []Account{
		{Name: "acct1", Key: "a2V5MQ==", Key2: "a2V5Mg=="}, {Name: "acct2", Key: "a2V5Mw=="}}})
	url := func(acct string) *reached {
		return &reached{Server: &Server{account: acct}, url: "http://" + in.Addr() + "/" + acct}
	}
	if _, err := azClient(t, url("acct1"), "a2V5MQ==").CreateTable(ctx, "OnlyOne", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := azClient(t, url("acct1"), "a2V5Mg==").CreateTable(ctx, "ByKey2", nil); err != nil {
		t.Errorf("the secondary key: %v", err)
	}
	if _, err := azClient(t, url("acct2"), "a2V5Mw==").CreateTable(ctx, "OnlyOne", nil); err != nil {
		t.Errorf("the same table name in another account: %v", err)
	}
	if _, err := azClient(t, url("acct2"), "a2V5MQ==").CreateTable(ctx, "Other", nil); !isStatus(err, 403) {
		t.Errorf("acct2 signed with acct1's key: %v", err)
	}
	if _, err := azClient(t, url(DevAccount), DevKey).CreateTable(ctx, "Dev", nil); err == nil {
		t.Error("the development account is served beside AZURITE_ACCOUNTS' accounts")
	}
	if n := len(in.PrintableConnectionStrings()); n != 2 {
		t.Errorf("%d connection strings", n)
	}
	for _, c := range in.PrintableConnectionStrings() {
		if strings.Contains(c, "a2V5") {
			t.Errorf("a key in %s", c)
		}
	}
}
