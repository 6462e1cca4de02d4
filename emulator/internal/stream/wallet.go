package stream

import (
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/ledger"
)

// walletMethods are the wallet stream's methods (the spec's names, plus
// get_transactions, which client libraries send for transactions).
var walletMethods = []string{"subscribe_transactions", "unsubscribe_transactions", "subscribe_wallet_balances",
	"unsubscribe_wallet_balances", "wallet_balances", "wallet_balance", "transactions", "get_transactions"}

// walletBalance is the real service's Balance: currency, available,
// reserved.
type walletBalance struct {
	Currency  string `json:"currency"`
	Available string `json:"available"`
	Reserved  string `json:"reserved"`
}

func newWalletBalance(b ledger.Balance) walletBalance {
	return walletBalance{Currency: b.Currency, Available: b.Available.String(), Reserved: b.Reserved.String()}
}

func (s *session) wallet(req request) []byte {
	f := s.c.srv.opts.Faults
	if _, isCall := tradingCalls[req.Method]; isCall && f.On("V3-WSW-NO-TRADING") {
		return s.trading(req)
	}
	if s.unknownFault(req.Method) || !contains(walletMethods, req.Method) {
		return s.unknown(req)
	}
	if s.prin == nil {
		if req.Method == "wallet_balances" && f.On("V3-WSW-LOGIN-FIRST") {
			return s.result([]walletBalance{}, req.ID)
		}
		return s.needLogin(req)
	}
	switch req.Method {
	case "wallet_balances":
		return s.result(s.walletBalances(), req.ID)
	case "wallet_balance":
		var p struct {
			Currency string `json:"currency"`
		}
		if err := decodeParams(req.Params, &p); err != nil || p.Currency == "" {
			return s.errorMsg(api.Validation("wallet_balance needs params {currency}"), req.ID)
		}
		for _, b := range s.acc.Balances(s.prin.Account) {
			if b.Currency == p.Currency {
				return s.result(newWalletBalance(b), req.ID)
			}
		}
		return s.result(walletBalance{Currency: p.Currency, Available: "0", Reserved: "0"}, req.ID)
	case "transactions", "get_transactions":
		// The emulator records no wallet transactions.
		return s.result([]any{}, req.ID)
	case "subscribe_wallet_balances":
		s.mu.Lock()
		s.subs["wallet_balances"] = true
		s.mu.Unlock()
		s.startUpdates()
		s.push(func() []byte {
			bs := s.walletBalances()
			s.remember(bs)
			return rpcNotification("wallet_balances", bs)
		})
	case "unsubscribe_wallet_balances":
		s.mu.Lock()
		s.subs["wallet_balances"] = false
		s.mu.Unlock()
	case "subscribe_transactions", "unsubscribe_transactions":
		s.mu.Lock()
		s.subs["transactions"] = req.Method == "subscribe_transactions"
		s.mu.Unlock()
	}
	return s.result(true, req.ID)
}

// walletBalances lists the account's non-zero balances, as the real
// service does.
func (s *session) walletBalances() []walletBalance {
	out := []walletBalance{}
	for _, b := range s.acc.Balances(s.principal().Account) {
		if !b.Available.IsZero() || !b.Reserved.IsZero() {
			out = append(out, newWalletBalance(b))
		}
	}
	return out
}

// remember keeps the balances last sent, for walletChanges.
func (s *session) remember(bs []walletBalance) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = map[string]walletBalance{}
	for _, b := range bs {
		s.sent[b.Currency] = b
	}
}

// walletChanges sends a wallet_balance_update for each balance that changed
// since the last one sent (one balance per notification, as the real
// service does); it runs on the notifier goroutine.
func (s *session) walletChanges() []byte {
	now := s.walletBalances()
	s.mu.Lock()
	var changed []walletBalance
	seen := map[string]bool{}
	for _, b := range now {
		seen[b.Currency] = true
		if s.sent[b.Currency] != b {
			changed = append(changed, b)
		}
	}
	for cur := range s.sent {
		if !seen[cur] {
			changed = append(changed, walletBalance{Currency: cur, Available: "0", Reserved: "0"})
		}
	}
	s.mu.Unlock()
	s.remember(now)
	for i, b := range changed {
		msg := rpcNotification("wallet_balance_update", b)
		if i == len(changed)-1 {
			return msg
		}
		_ = s.c.write(msg)
	}
	return nil
}
