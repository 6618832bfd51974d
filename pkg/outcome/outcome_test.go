package outcome

import "testing"

func TestClassifyAndKey(t *testing.T) {
	tests := []struct {
		status    int
		code      string
		class     Class
		key       string
		retryable bool
	}{
		{200, "", OK, "200", false},                                          // point read
		{204, "", OK, "204", false},                                          // update
		{202, "", OK, "202", false},                                          // transaction accepted
		{503, "ServerBusy", Throttled, "503 ServerBusy", true},               // partition over target
		{500, "OperationTimedOut", Throttled, "500 OperationTimedOut", true}, // Azure's other throttle
		{504, "", Throttled, "504", true},                                    // gateway
		{429, "TooManyRequests", Throttled, "429 TooManyRequests", true},     // Cosmos DB
		{409, "EntityAlreadyExists", ClientError, "409 EntityAlreadyExists", false},
		{412, "UpdateConditionNotSatisfied", ClientError, "412 UpdateConditionNotSatisfied", false},
		{404, "ResourceNotFound", ClientError, "404 ResourceNotFound", false},
		{500, "InternalError", ServerError, "500 InternalError", true},
		{501, "", ServerError, "501", false},
		{505, "", ServerError, "505", false},
	}
	for _, tt := range tests {
		o := New(tt.status, tt.code)
		if o.Class != tt.class {
			t.Errorf("New(%d,%q).Class = %v, want %v", tt.status, tt.code, o.Class, tt.class)
		}
		if got := o.Key(); got != tt.key {
			t.Errorf("New(%d,%q).Key() = %q, want %q", tt.status, tt.code, got, tt.key)
		}
		if got := o.Retryable(); got != tt.retryable {
			t.Errorf("New(%d,%q).Retryable() = %v, want %v", tt.status, tt.code, got, tt.retryable)
		}
	}
}

func TestNoAnswerKeys(t *testing.T) {
	for _, c := range []Class{Transport, Timeout, Canceled} {
		o := Outcome{Class: c}
		if o.Key() != c.String() {
			t.Errorf("Outcome{Class:%v}.Key() = %q, want %q", c, o.Key(), c.String())
		}
	}
	if (Outcome{Class: Canceled}).Retryable() {
		t.Error("canceled requests must not be retried")
	}
	if Class(200).String() != "class(200)" {
		t.Errorf("unknown class name = %q", Class(200).String())
	}
}
