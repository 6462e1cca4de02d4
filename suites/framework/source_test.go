package framework

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/conform-harness/conform/target"
)

// While the tree is built, the flags alone say whether the target is
// reached from one address: the embedded emulator and a plain loopback
// target are not; a target elsewhere, a declared shared source and a
// resolution that found a proxy are.
func TestOneSourceAtBuild(t *testing.T) {
	declared := filepath.Join(t.TempDir(), "target.json")
	if err := os.WriteFile(declared, []byte(`{"rest": "http://127.0.0.1:9", "shared_source": true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	proxied := target.Resolution{REST: "http://127.0.0.1:9", Emulator: true, SharedSource: true}.Encode()
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-conform.target=http://127.0.0.1:9"}, false},
		{[]string{"-conform.target=https://api.demo.example.com"}, true},
		{[]string{"-conform.config=" + declared}, true},
		{[]string{"-conform.target=http://127.0.0.1:9", "-conform.resolved=" + proxied}, true},
	} {
		before := registered
		fs := flag.NewFlagSet("suite", flag.ContinueOnError)
		RegisterFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if got := OneSourceAtBuild(); got != tc.want {
			t.Errorf("%v: OneSourceAtBuild() = %v, want %v", tc.args, got, tc.want)
		}
		registered = before
	}
}
