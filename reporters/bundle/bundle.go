// Package bundle writes a certification bundle: the directory of a
// certifying run with its reports, a manifest (tool version, catalogue
// version and hash, a description of the target without keys or secrets,
// the command line), a README saying how to reproduce the run, and a
// .tar.gz of those files and nothing else.
package bundle

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/conform-harness/conform/fixtures"
	"github.com/conform-harness/conform/internal/outdir"
	"github.com/conform-harness/conform/rules"
	"github.com/conform-harness/conform/target"
)

// File names in a bundle.
const (
	ManifestFile = "bundle.json"
	TargetFile   = "target.json"
	ReadmeFile   = "README.md"
)

// Role is a configured role of the target and its rights; never its key.
type Role struct {
	Name   string   `json:"name"`
	Rights []string `json:"rights"`
}

// Target describes what was certified. It holds no API key or secret.
type Target struct {
	// REST and WS are the base URLs (user information removed); empty REST
	// means the embedded emulator.
	REST     string `json:"rest,omitempty"`
	WS       string `json:"ws,omitempty"`
	Embedded bool   `json:"embedded_emulator,omitempty"`
	// APIVersions are the API versions the catalogue's rules come from.
	APIVersions      []string `json:"api_versions"`
	Sandbox          bool     `json:"declared_sandbox"`
	AllowLiveTrading bool     `json:"allow_live_trading,omitempty"`
	SharedSource     bool     `json:"shared_source,omitempty"`
	Roles            []Role   `json:"roles"`
	// RolesFrom says where the roles come from: the target config, or the
	// emulator's fixture accounts when an emulator is used without keys.
	RolesFrom string `json:"roles_from"`
	// AccountSets is the number of further account sets for parallel runs.
	AccountSets int `json:"account_sets,omitempty"`
}

// DescribeTarget describes cfg for the bundle: URLs, versions, the declared
// sandbox and each role's rights, never a key or a secret.
func DescribeTarget(cfg target.Config, cat *rules.Catalogue) Target {
	t := Target{REST: PublicURL(cfg.REST), WS: PublicURL(cfg.WS), Embedded: cfg.REST == "", Sandbox: cfg.Sandbox,
		AllowLiveTrading: cfg.AllowLiveTrading, SharedSource: cfg.SharedSource, AccountSets: len(cfg.AccountSets),
		APIVersions: APIVersions(cat), Roles: []Role{}}
	accounts, from := cfg.Accounts, "target config"
	if len(accounts) == 0 && (cfg.REST == "" || cfg.Emulator) {
		accounts, from = fixtureRoles(), "emulator fixture accounts (fixtures/accounts.json)"
	}
	t.RolesFrom = from
	names := make([]string, 0, len(accounts))
	for name := range accounts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		rights := slices.Clone(accounts[name].Rights)
		if rights == nil {
			rights = []string{}
		}
		t.Roles = append(t.Roles, Role{Name: name, Rights: rights})
	}
	return t
}

// fixtureRoles are the roles the suite gives each process on an emulator:
// the first fixture account's keys, and a counterparty with full rights.
func fixtureRoles() map[string]target.Account {
	accts, err := fixtures.Accounts()
	if err != nil || len(accts) == 0 {
		return nil
	}
	out := map[string]target.Account{}
	for _, k := range accts[0].Keys {
		out[k.Role] = target.Account{Rights: k.Rights}
		if k.Role == target.RoleFull {
			out[target.RoleCounterparty] = target.Account{Rights: k.Rights}
		}
	}
	return out
}

// PublicURL drops user information, query and fragment from a URL, which
// is where a credential could hide in one.
func PublicURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// APIVersions are the versions of the documents the catalogue's rules come
// from ("api-v3.md" gives "3"), in the order of rules.Areas.
func APIVersions(cat *rules.Catalogue) []string {
	used := map[string]bool{}
	for _, r := range cat.All() {
		used[r.Area] = true
	}
	out := []string{}
	for _, a := range rules.Areas() {
		if !used[a.Name] {
			continue
		}
		v := strings.TrimSuffix(strings.TrimPrefix(a.Document, "api-v"), ".md")
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// Catalogue identifies the rule catalogue a run was judged by.
type Catalogue struct {
	// Version is "<rules>-<first 12 hex digits of the hash>": it changes
	// whenever a rule is added, removed or reworded.
	Version string `json:"version"`
	Rules   int    `json:"rules"`
	// SHA256 is the hash of the catalogue's JSON encoding (every rule with
	// its ID, area, section, statement, status, reason, pending).
	SHA256 string `json:"sha256"`
}

// CatalogueOf hashes the catalogue.
func CatalogueOf(cat *rules.Catalogue) Catalogue {
	all := cat.All()
	b, _ := json.Marshal(all) // a []rules.Rule always encodes
	sum := sha256.Sum256(b)
	h := hex.EncodeToString(sum[:])
	return Catalogue{Version: fmt.Sprintf("%d-%s", len(all), h[:12]), Rules: len(all), SHA256: h}
}

// Tool identifies the conform build.
type Tool struct {
	Module    string `json:"module"`
	Version   string `json:"version"`
	GoVersion string `json:"go_version"`
	Revision  string `json:"vcs_revision,omitempty"`
	Time      string `json:"vcs_time,omitempty"`
	Modified  bool   `json:"vcs_modified,omitempty"`
}

// ToolVersion reads the build information of the running binary.
func ToolVersion() Tool {
	t := Tool{Module: "conform", Version: "(unknown)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return t
	}
	t.Module, t.Version, t.GoVersion = bi.Main.Path, bi.Main.Version, bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			t.Revision = s.Value
		case "vcs.time":
			t.Time = s.Value
		case "vcs.modified":
			t.Modified = s.Value == "true"
		}
	}
	return t
}

// File is one file of the bundle with its size and hash.
type File struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Manifest is bundle.json.
type Manifest struct {
	Created   time.Time `json:"created"`
	Verdict   string    `json:"verdict"`
	Tool      Tool      `json:"tool"`
	Catalogue Catalogue `json:"catalogue"`
	Target    Target    `json:"target"`
	// Command is the command line that reproduces the run (no secrets: keys
	// come from the environment or the config file).
	Command string `json:"command"`
	// BrowserCheck says what headless Chromium showed of report.html.
	BrowserCheck string `json:"browser_check,omitempty"`
	Files        []File `json:"files"`
}

// Write completes the bundle in dir: target.json, README.md and
// bundle.json, which lists files (the run's reports, names relative to
// dir) and those two with their hashes. It returns the names of the
// bundle's files, bundle.json included, sorted: nothing else in dir
// belongs to the bundle.
func Write(dir string, files []string, m Manifest) ([]string, error) {
	if err := writeJSON(filepath.Join(dir, TargetFile), m.Target); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, ReadmeFile), []byte(readme(m)), 0o644); err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	var names []string
	for _, f := range append(slices.Clone(files), TargetFile, ReadmeFile) {
		if f != ManifestFile && !slices.Contains(names, f) {
			names = append(names, f)
		}
	}
	sort.Strings(names)
	hashed, err := hashFiles(dir, names)
	if err != nil {
		return nil, err
	}
	m.Files = hashed
	if err := writeJSON(filepath.Join(dir, ManifestFile), m); err != nil {
		return nil, err
	}
	names = append(names, ManifestFile)
	sort.Strings(names)
	return names, nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("bundle: encode %s: %w", filepath.Base(path), err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	return nil
}

// hashFiles hashes the named files of dir.
func hashFiles(dir string, names []string) ([]File, error) {
	var out []File
	for _, name := range names {
		size, sum, err := outdir.HashFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return nil, fmt.Errorf("bundle: %w", err)
		}
		out = append(out, File{Name: name, Size: size, SHA256: sum})
	}
	return out, nil
}

// WriteTarGz writes the named files of dir (names relative to dir, as
// Write returns them) to w as a gzipped tar, under the directory's own
// name. Only regular files are packed; nothing else of dir is.
func WriteTarGz(w io.Writer, dir string, names []string) error {
	// BestSpeed: the default level spent 1.7 s of a certification's end on
	// a 14 MB ginkgo.json for a few percent of size.
	gz, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	base := filepath.Base(filepath.Clean(dir))
	err = addDir(tw, dir, base)
	for _, name := range names {
		if err != nil {
			break
		}
		err = addFile(tw, filepath.Join(dir, filepath.FromSlash(name)), path.Join(base, name))
	}
	for _, c := range []io.Closer{tw, gz} {
		if cerr := c.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	return nil
}

func addDir(tw *tar.Writer, dir, name string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	h, err := tar.FileInfoHeader(info, "")
	if err != nil {
		return err
	}
	h.Name = name + "/"
	return tw.WriteHeader(h)
}

func addFile(tw *tar.Writer, p, name string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", p)
	}
	h, err := tar.FileInfoHeader(info, "")
	if err != nil {
		return err
	}
	h.Name = name
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	_, err = io.CopyN(tw, f, info.Size())
	return err
}
