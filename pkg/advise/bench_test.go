package advise

import (
	"context"
	"os"
	"testing"

	"github.com/tablestress/tablestress/pkg/scenario"
)

// BenchmarkAdviseNotifications times the judgement alone (every candidate
// at the horizon, no proof) on the slowest ready scenario, as
// `tablestress advise scenarios/notifications.yaml --no-prove` runs it:
//
//	go test ./pkg/advise -run '^$' -bench AdviseNotifications -benchtime 1x
func BenchmarkAdviseNotifications(b *testing.B) {
	path := "../../scenarios/notifications.yaml"
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sc, errs := scenario.Parse(path, src)
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		in, err := Prepare(sc, Defaults())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := in.Advise(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
