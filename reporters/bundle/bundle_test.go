package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/rules"
	"github.com/conform-harness/conform/target"
)

func TestDescribeTargetHoldsNoSecret(t *testing.T) {
	cfg := target.Config{
		REST: "https://user:pa55word@api.example.com/?token=s3cr3t#frag", WS: "wss://api.example.com", Sandbox: true,
		Accounts: map[string]target.Account{
			"full":      {APIKey: "KEY-FULL-123", Secret: "SECRET-FULL-456", Rights: []string{"orderbook", "trading"}},
			"no-rights": {APIKey: "KEY-NONE-789", Secret: "SECRET-NONE-000"},
		},
		AccountSets: []map[string]target.Account{{"full": {APIKey: "KEY-SET-2", Secret: "SECRET-SET-2"}}},
	}
	d := DescribeTarget(cfg, rules.Default())
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"KEY-", "SECRET-", "pa55word", "user", "s3cr3t", "frag"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("description holds %q: %s", secret, b)
		}
	}
	cases := []struct {
		name string
		ok   bool
	}{
		{"rest", d.REST == "https://api.example.com/"},
		{"sandbox", d.Sandbox},
		{"roles", len(d.Roles) == 2 && d.Roles[0].Name == "full" && slices.Equal(d.Roles[0].Rights, []string{"orderbook", "trading"}) && len(d.Roles[1].Rights) == 0},
		{"account sets", d.AccountSets == 1},
		{"versions", slices.Contains(d.APIVersions, "3")},
		{"embedded", !d.Embedded && DescribeTarget(target.Config{}, rules.Default()).Embedded},
		{"roles from config", d.RolesFrom == "target config"},
		{"fixture roles on the emulator", len(DescribeTarget(target.Config{}, rules.Default()).Roles) >= 4},
	}
	for _, c := range cases {
		if !c.ok {
			t.Errorf("%s: %+v", c.name, d)
		}
	}
}

func TestCatalogueVersionFollowsTheRules(t *testing.T) {
	a := CatalogueOf(rules.Default())
	if a != CatalogueOf(rules.Default()) || len(a.SHA256) != 64 || !strings.HasSuffix(a.Version, a.SHA256[:12]) {
		t.Errorf("catalogue %+v", a)
	}
	one, err := rules.New([]rules.Rule{{ID: "V3-X", Area: "spot", Section: "s", Statement: "x", Status: rules.Testable}})
	if err != nil {
		t.Fatal(err)
	}
	if CatalogueOf(one).SHA256 == a.SHA256 {
		t.Error("two catalogues, one hash")
	}
}

// The bundle is the files it is given and its own three, nothing else of
// the directory: not a file beside them, not a secret in one.
func TestWriteBundle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cert")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"results.json", "report.html", "sub/x.txt", "config.json", "sub/other.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("content of "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := Manifest{Created: time.Now(), Verdict: "PASSED", Tool: ToolVersion(), Catalogue: CatalogueOf(rules.Default()),
		Target: DescribeTarget(target.Config{}, rules.Default()), Command: "bin/conform run --certify --out cert"}
	files, err := Write(dir, []string{"results.json", "report.html", "sub/x.txt", ReadmeFile}, m)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"README.md", "bundle.json", "report.html", "results.json", "sub/x.txt", "target.json"}; !slices.Equal(files, want) {
		t.Errorf("bundle files %v, want %v", files, want)
	}
	readme, _ := os.ReadFile(filepath.Join(dir, ReadmeFile))
	if !strings.Contains(string(readme), "bin/conform run --certify --out cert") || !strings.Contains(string(readme), m.Catalogue.SHA256) {
		t.Errorf("README:\n%s", readme)
	}
	var got Manifest
	b, _ := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range got.Files {
		names = append(names, f.Name)
		if len(f.SHA256) != 64 || f.Size == 0 {
			t.Errorf("manifest entry %+v", f)
		}
	}
	want := []string{"README.md", "report.html", "results.json", "sub/x.txt", "target.json"}
	if !slices.Equal(names, want) {
		t.Errorf("manifest files %v, want %v", names, want)
	}
	var buf bytes.Buffer
	if err := WriteTarGz(&buf, dir, files); err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var entries []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, h.Name)
	}
	wantEntries := []string{"cert/", "cert/README.md", "cert/bundle.json", "cert/report.html", "cert/results.json", "cert/sub/x.txt", "cert/target.json"}
	if !slices.Equal(entries, wantEntries) {
		t.Errorf("tar entries %v, want %v", entries, wantEntries)
	}
	if err := WriteTarGz(io.Discard, dir, []string{"missing.json"}); err == nil {
		t.Error("a missing file packed")
	}
}
