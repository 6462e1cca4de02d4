package bundle

import (
	"archive/tar"
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

func TestWriteBundle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cert")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"results.json", "report.html", "sub/x.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("content of "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := Manifest{Created: time.Now(), Verdict: "PASSED", Tool: ToolVersion(), Catalogue: CatalogueOf(rules.Default()),
		Target: DescribeTarget(target.Config{}, rules.Default()), Command: "bin/conform run --certify --out cert"}
	tgz, err := Write(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	if tgz != dir+".tar.gz" {
		t.Errorf("tar at %s", tgz)
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
	}
	want := []string{"README.md", "report.html", "results.json", "sub/x.txt", "target.json"}
	if !slices.Equal(names, want) {
		t.Errorf("manifest files %v, want %v", names, want)
	}
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
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
	for _, want := range []string{"cert/", "cert/results.json", "cert/bundle.json", "cert/sub/x.txt"} {
		if !slices.Contains(entries, want) {
			t.Errorf("tar lacks %s: %v", want, entries)
		}
	}
}
