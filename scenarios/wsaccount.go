package scenarios

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/client"
)

// Per-account stream rows: messages of one account over several
// connections, each from an address of its own and logged in with one of
// two keys of the account, so that only the account's budget binds (each
// address stays within its per-IP budget, IPBudget). Every connection logs
// in first (with the real service's login: the document shows none), paced
// under the row's own login budget, and the logins age out before the
// offers start. Messages that must not change anything: requests answered
// with an error that is still an answer (an order that does not exist), or
// reads.
const (
	msgAcctSubscribe = `{"method":"spot_unsubscribe","params":{},"id":%q}`
	msgAcctQuery     = `{"method":"spot_balances","params":{},"id":%q}`
	msgAcctOrder     = `{"method":"spot_replace_order","params":{"client_order_id":"` + probeID + `","new_client_order_id":"conformlimitprobe2","quantity":"1","price":"1"},"id":%q}`
	msgAcctWallet    = `{"method":"wallet_balances","params":{},"id":%q}`
	// msgAcctLogin is a login message; {api_key} and {secret_key} are
	// filled in per connection.
	msgAcctLogin = `{"method":"login","params":{"type":"BASIC","api_key":{api_key},"secret_key":{secret_key}},"id":%q}`
)

// logins orders the setup logins of the per-account rows of one stream:
// one pacer keeps them under the stream's login row (read from the spec
// through the client's table), and a row whose own budget counts logins
// (Row.Logins) logs in only once the other rows have, so that no login
// lands in its window.
type logins struct {
	pacer  *client.Pacer
	others sync.WaitGroup
}

func newLogins(path string) *logins {
	return &logins{pacer: client.NewPacer(client.StreamMethodClasses(path), 1)}
}

// fill puts a key into a message template.
func fill(msg string, c client.Credential) string {
	k, _ := json.Marshal(c.Key)
	s, _ := json.Marshal(c.Secret)
	return strings.NewReplacer("{api_key}", string(k), "{secret_key}", string(s)).Replace(msg)
}

// streamMethod is the method a message template names.
func streamMethod(msg string) string {
	var m struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal([]byte(fmt.Sprintf(msg, "x")), &m)
	return m.Method
}

// runAccountStreamRow checks a per-account stream row.
func runAccountStreamRow(ctx context.Context, cfg Config, rr *RowResult, lg *logins) error {
	if rr.Row.Logins {
		lg.others.Wait()
	} else {
		// Whatever happens, the rows that count logins may go on once this
		// row is done logging in.
		loggedIn := sync.OnceFunc(lg.others.Done)
		defer loggedIn()
		return runAccountStreamRowAfter(ctx, cfg, rr, lg, loggedIn)
	}
	return runAccountStreamRowAfter(ctx, cfg, rr, lg, func() {})
}

func runAccountStreamRowAfter(ctx context.Context, cfg Config, rr *RowResult, lg *logins, loggedIn func()) error {
	r := rr.Row
	t := r.Targets[0]
	if len(cfg.AccountKeys) < 2 {
		rr.Skipped = "needs two keys of one account (roles full and read-only)"
		return nil
	}
	url := cfg.WS + "/api/3" + t.Path
	if err := cfg.Guard.CheckStream(url, streamMethod(t.Message)); err != nil {
		rr.Skipped = err.Error()
		return nil
	}
	ips, err := cfg.Addresses.Take(r.Addresses)
	if err != nil {
		return err
	}
	var senders fanout
	var last time.Time
	defer func() {
		for _, s := range senders {
			closeSender(s)
		}
	}()
	for i, ip := range ips {
		key := cfg.AccountKeys[i%2]
		s := &wsSender{url: url, from: ip, conns: 1, message: fill(t.Message, key), guard: cfg.Guard}
		senders = append(senders, s)
		if err := s.connect(ctx); err != nil {
			return err
		}
		m, err := lg.login(ctx, s.clients[0], fill(msgAcctLogin, key))
		if err != nil {
			return fmt.Errorf("logging in on %s from %s: %w", url, ip, err)
		}
		if m.Error != nil {
			rr.Skipped = fmt.Sprintf("the login (the real service's BASIC login; the document shows none) on %s was refused: %s", url, m.Describe())
			return nil
		}
		last = m.At
		// One message learns what an accepted answer looks like from this
		// connection (a result, or an error that is still an answer, such
		// as a missing right), while the budget is fresh.
		if err := lg.pacer.Wait(ctx, streamMethod(s.message)); err != nil {
			return err
		}
		b, err := s.Send(ctx, 1)
		if err != nil {
			return err
		}
		if b.Accepted != 1 {
			return fmt.Errorf("the first %s from %s got no answer: %v", streamMethod(s.message), ip, b.Failed)
		}
		last = b.End
	}
	loggedIn()
	// The logins and probes count: let them age out.
	if err := sleepUntil(ctx, last.Add(Window+margin)); err != nil {
		return err
	}
	who := fmt.Sprintf("%s %s, two keys of one account over %d addresses", t.Path, streamMethod(t.Message), len(ips))
	o := Check(ctx, who, senders, Plan{Budget: r.Budget(), Extra: r.Extra(), Slide: true})
	rr.Full = []Outcome{o}
	// The account's budget is spent: let it age out before the specs that
	// run next in this process log in with the same account.
	end := o.Exact.End
	for _, b := range o.Bursts() {
		if b.End.After(end) {
			end = b.End
		}
	}
	return sleepUntil(ctx, end.Add(Window+margin))
}

// loginParams extracts the params of a login message for client.Request.
func loginParams(msg string) map[string]any {
	var m struct {
		Params map[string]any `json:"params"`
	}
	_ = json.Unmarshal([]byte(fmt.Sprintf(msg, "login")), &m)
	return map[string]any{"params": m.Params}
}

// login logs a connection in, paced under the login row; a login the
// target refused with 429 all the same (the harness's pacing met the
// target's timing at the edge of a window) is tried again once the window
// has passed, up to three times.
func (lg *logins) login(ctx context.Context, c *client.WSConn, msg string) (client.WSMessage, error) {
	var m client.WSMessage
	for attempt := 0; attempt < 3; attempt++ {
		if err := lg.pacer.Wait(ctx, "login"); err != nil {
			return m, err
		}
		var err error
		m, err = c.Request(ctx, answerTimeout, fmt.Sprintf("login%d", attempt), "login", loginParams(msg))
		if err != nil || m.Error == nil || m.Error.Code.String() != "429" {
			return m, err
		}
		lg.pacer.Backoff("login")
	}
	return m, nil
}
