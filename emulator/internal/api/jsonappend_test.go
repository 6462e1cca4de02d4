package api

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain ASCII ~", `quote " and \ backslash`, "<html> & co", "\x00\x1f\x7f", "\b\f\n\r\t",
		"é ü 中文", "\u2028\u2029", "\xff\xfe bad UTF-8", "emoji 🚀"} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := string(AppendString([]byte("x"), s)) + "\n"; got[1:] != want.String() {
			t.Errorf("AppendString(%q) = %s, want %s", s, got[1:], want.String())
		}
	}
}
