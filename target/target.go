// Package target describes what a conformance run is aimed at: the REST and
// WebSocket base URLs, the accounts (API keys with access rights) by role,
// and whether the target may take orders. The CLI validates it; the suites
// read it.
package target

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Roles the suites ask for. A target config names a key per role; a spec
// that needs a role the config lacks is skipped with the reason.
const (
	RoleFull      = "full"       // every access right
	RoleReadOnly  = "read-only"  // Orderbook, History, Trading balance only
	RoleTradeOnly = "trade-only" // Place/cancel orders only
	RoleNoRights  = "no-rights"  // an authenticated key without access rights
	// RolePaymentOnly and RoleWithdrawOnly hold Payment information alone and
	// Withdraw cryptocurrencies alone: with read-only and trade-only, a key
	// for each of the four documented rights by itself.
	RolePaymentOnly  = "payment-only"
	RoleWithdrawOnly = "withdraw-only"
	// RoleCounterparty is a second account with every right, the other side
	// of the suite's own trades (maker against taker).
	RoleCounterparty = "counterparty"
	// RoleSub and RoleSub2 are two sub-accounts of the full key's account,
	// each a key with every right (sub-to-super and sub-to-sub transfers,
	// frozen keys refused).
	RoleSub  = "sub"
	RoleSub2 = "sub2"
)

// Account is one API key pair.
type Account struct {
	APIKey string   `json:"api_key"`
	Secret string   `json:"secret"`
	Rights []string `json:"rights,omitempty"`
	// SubAccountID is the sub_account_id of a sub-account's key (roles sub
	// and sub2): the documents give a sub-account no way to read its own.
	SubAccountID string `json:"sub_account_id,omitempty"`
	// SubAccountUserID is the numeric user id version 2 names the same
	// sub-account by (ids, subAccountId).
	SubAccountUserID int64 `json:"sub_account_user_id,omitempty"`
	// DisabledSubAccountUserID (role full) is the numeric user id of a
	// disabled sub-account of the key's account: version 2 names
	// sub-accounts by user id, its listing's response is not shown and
	// version 3 lists only hex ids, so no spec can find one on its own.
	DisabledSubAccountUserID int64 `json:"disabled_sub_account_user_id,omitempty"`
	// Username and Email (role counterparty) name the account as version
	// 2's internal transfer takes a recipient (by username or email): the
	// documents give no way to read them.
	Username string `json:"username,omitempty"`
	Email    string `json:"email,omitempty"`
}

// Config is the target of a run.
type Config struct {
	// REST is the base URL before /api/3 (empty: the embedded emulator).
	REST string `json:"rest,omitempty"`
	// WS is the streaming base URL before /api/3/ws; derived from REST when empty.
	WS string `json:"ws,omitempty"`
	// Sandbox declares the target a sandbox, where orders may be placed:
	// the REST and the stream target both (see trading.go).
	Sandbox bool `json:"sandbox,omitempty"`
	// RESTSandbox and WSSandbox declare only the REST or only the stream
	// target a sandbox, for targets on different hosts.
	RESTSandbox bool `json:"rest_sandbox,omitempty"`
	WSSandbox   bool `json:"ws_sandbox,omitempty"`
	// AllowLiveTrading lets order-placing specs run on any target.
	AllowLiveTrading bool `json:"allow_live_trading,omitempty"`
	// Emulator is set when the target is a conform emulator with its control
	// plane; only then do emulator-only specs run.
	Emulator bool `json:"emulator,omitempty"`
	// ControlURL is the emulator's control plane base URL.
	ControlURL string `json:"control_url,omitempty"`
	// WSEmulator is set when the stream target, on a host of its own, is
	// itself proven a conform emulator (its control plane answered).
	WSEmulator bool `json:"ws_emulator,omitempty"`
	// ControlToken is the token of an emulator whose control plane was
	// started with one (conform emulate --control-token): the harness sends
	// it to the control plane. A secret: the redactor knows it.
	ControlToken string `json:"control_token,omitempty"`
	// Accounts maps a role to a key pair.
	Accounts map[string]Account `json:"accounts,omitempty"`
	// SharedSource declares that the target sees one source address for
	// every connection of the harness (a proxy in between), so per-address
	// budgets are shared and clients pace. The suite detects it on an
	// emulator; elsewhere it can be declared.
	SharedSource bool `json:"shared_source,omitempty"`
	// AccountSets are further accounts by role for parallel runs on a
	// trading target: Ginkgo process 1 uses Accounts, process p uses
	// AccountSets[p-2], so that no two processes share balances or orders.
	// See SharedAccountProcs.
	AccountSets []map[string]Account `json:"account_sets,omitempty"`
	// CAFile is a PEM file of the certificate authorities behind the
	// target's TLS certificates (a sandbox with a private CA), trusted on
	// top of the system's roots; relative to the config file. See TLS.
	CAFile string `json:"ca_file,omitempty"`
}

// Load reads a JSON config file (when path is not empty) and then applies
// environment overrides: CONFORM_TARGET, CONFORM_WS_TARGET,
// CONFORM_CONTROL_TOKEN, CONFORM_SANDBOX, CONFORM_REST_SANDBOX,
// CONFORM_WS_SANDBOX, CONFORM_CA_FILE, and CONFORM_KEY_<ROLE>=<api_key>:<secret>[:<right>,...]
// where ROLE is the role in upper case with - as _ (CONFORM_KEY_READ_ONLY).
func Load(path string, getenv func(string) string) (Config, error) {
	var c Config
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return c, fmt.Errorf("target config: %w", err)
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return c, fmt.Errorf("target config %s: %w", path, err)
		}
		if c.CAFile != "" && !filepath.IsAbs(c.CAFile) {
			c.CAFile = filepath.Join(filepath.Dir(path), c.CAFile)
		}
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	if v := getenv("CONFORM_TARGET"); v != "" {
		c.REST = v
	}
	if v := getenv("CONFORM_WS_TARGET"); v != "" {
		c.WS = v
	}
	if v := getenv("CONFORM_CA_FILE"); v != "" {
		c.CAFile = v
	}
	if v := getenv("CONFORM_CONTROL_TOKEN"); v != "" {
		c.ControlToken = v
	}
	for name, dst := range map[string]*bool{"CONFORM_SANDBOX": &c.Sandbox, "CONFORM_REST_SANDBOX": &c.RESTSandbox, "CONFORM_WS_SANDBOX": &c.WSSandbox} {
		if v := getenv(name); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return c, fmt.Errorf("%s=%q: want true or false", name, v)
			}
			*dst = b
		}
	}
	for _, role := range []string{RoleFull, RoleReadOnly, RoleTradeOnly, RoleNoRights, RolePaymentOnly, RoleWithdrawOnly, RoleCounterparty, RoleSub, RoleSub2} {
		name := "CONFORM_KEY_" + strings.ToUpper(strings.ReplaceAll(role, "-", "_"))
		v := getenv(name)
		if v == "" {
			continue
		}
		parts := strings.SplitN(v, ":", 3)
		if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
			return c, fmt.Errorf("%s: want <api_key>:<secret>[:<rights>]", name)
		}
		a := Account{APIKey: parts[0], Secret: parts[1]}
		if len(parts) == 3 && parts[2] != "" {
			a.Rights = strings.Split(parts[2], ",")
		}
		if c.Accounts == nil {
			c.Accounts = map[string]Account{}
		}
		c.Accounts[role] = a
	}
	return c, nil
}

// Validate checks URLs, accounts and the CA file and fills in the WebSocket URL.
func (c *Config) Validate() error {
	if err := c.validateAccounts(); err != nil {
		return err // whatever the target: a half-given key is a config mistake
	}
	if _, err := c.TLS(); err != nil {
		return err
	}
	if c.REST == "" {
		return nil // the embedded emulator
	}
	u, err := url.Parse(c.REST)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("target %q: want an http(s) base URL such as https://api.example.com", c.REST)
	}
	if strings.Contains(u.Path, "/api/") {
		return fmt.Errorf("target %q: give the base URL without /api/3", c.REST)
	}
	if c.WS == "" {
		c.WS = DeriveWS(c.REST)
	} else if w, err := url.Parse(c.WS); err != nil || (w.Scheme != "ws" && w.Scheme != "wss") {
		return fmt.Errorf("websocket target %q: want a ws(s) base URL", c.WS)
	}
	return nil
}

// validateAccounts checks that every configured key has both halves, in a
// fixed order so that the one line names the same account every time.
func (c *Config) validateAccounts() error {
	check := func(where string, set map[string]Account) error {
		for _, role := range slices.Sorted(maps.Keys(set)) {
			if a := set[role]; a.APIKey == "" || a.Secret == "" {
				return fmt.Errorf("target config: %saccount %q: api_key and secret are required", where, role)
			}
		}
		return nil
	}
	if err := check("", c.Accounts); err != nil {
		return err
	}
	for i, set := range c.AccountSets {
		if err := check(fmt.Sprintf("account_sets[%d] ", i), set); err != nil {
			return err
		}
	}
	return nil
}

// DeriveWS maps http(s)://host/p to ws(s)://host/p, the address shapes of the
// spec sharing host and prefix between REST and streams.
func DeriveWS(rest string) string {
	switch {
	case strings.HasPrefix(rest, "https://"):
		return "wss://" + strings.TrimPrefix(rest, "https://")
	case strings.HasPrefix(rest, "http://"):
		return "ws://" + strings.TrimPrefix(rest, "http://")
	}
	return rest
}

// IsLoopback reports whether the REST target is on this machine.
func (c *Config) IsLoopback() bool {
	u, err := url.Parse(c.REST)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// OwnSourceAddresses reports whether connections from different loopback
// source addresses reach the target as different clients: a loopback target
// that no proxy stands in front of.
func (c *Config) OwnSourceAddresses() bool { return c.IsLoopback() && !c.SharedSource }

// Roles lists the configured roles, sorted.
func (c *Config) Roles() []string {
	var rs []string
	for r := range c.Accounts {
		rs = append(rs, r)
	}
	sort.Strings(rs)
	return rs
}

// ErrNoRole is returned when a spec asks for a role the config lacks.
var ErrNoRole = errors.New("no key configured for role")
