package wallet

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"regexp"
	"strings"

	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/shopspring/decimal"
)

// MaxAddresses is how many deposit (or used) addresses the lists answer.
const MaxAddresses = 10

// MaxComment is the longest publicComment a withdrawal takes.
const MaxComment = 255

// network finds the network of currency named code ("" is the default).
func (w *Wallet) network(currency, code string) (market.Currency, market.Network, *Error) {
	c, ok := w.mkt.Currency(currency)
	if !ok {
		return c, market.Network{}, refuse(Currency, "currency %q is not listed", currency)
	}
	for _, n := range c.Networks {
		if (code == "" && n.Default) || (code != "" && n.Code == code) {
			return c, n, nil
		}
	}
	if code != "" {
		return c, market.Network{}, refuse(Validation, "networkCode %q is not a network of %s", code, currency)
	}
	return c, market.Network{}, refuse(NotAllowed, "%s is not a crypto currency: it has no network", currency)
}

const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// newAddress makes a fresh address that matches the network's pattern.
func (w *Wallet) newAddress(account, currency string, n market.Network) Address {
	w.addrSeq++
	var seed [8]byte
	binary.BigEndian.PutUint64(seed[:], w.addrSeq)
	h := sha256.Sum256(append([]byte(account+"/"+currency+"/"+n.Code+"/"), seed[:]...))
	pick := func(alphabet string, k int) string {
		var b strings.Builder
		for i := 0; i < k; i++ {
			x := h[i%len(h)] ^ byte(i*7)
			b.WriteByte(alphabet[int(x)%len(alphabet)])
		}
		return b.String()
	}
	pattern := ""
	if n.AddressRegex != nil {
		pattern = *n.AddressRegex
	}
	var a string
	switch {
	case strings.HasPrefix(pattern, "^0x"):
		a = "0x" + pick("0123456789abcdef", 40)
	case strings.HasPrefix(pattern, "^(1|3|bc1)"):
		a = "bc1" + pick(base58, 39)
	case strings.HasPrefix(pattern, "^(L|M|ltc1)"):
		a = "ltc1" + pick(base58, 39)
	case strings.HasPrefix(pattern, "^r"):
		a = "r" + pick(base58, 30)
	case strings.HasPrefix(pattern, "^T"):
		a = "T" + pick(base58, 33)
	default:
		a = pick(base58, 40)
	}
	out := Address{Address: a, NetworkCode: n.Code, Currency: currency}
	if n.PayinPaymentID {
		out.PaymentID = pick("0123456789", 9)
	}
	return out
}

// current answers (creating) the current deposit address; caller holds mu.
func (w *Wallet) current(s *state, account, currency, network string) Address {
	list := s.addrs[currency]
	for i := len(list) - 1; i >= 0; i-- {
		if network == "" || list[i].NetworkCode == network {
			return list[i]
		}
	}
	_, n, err := w.network(currency, network)
	if err != nil {
		return Address{}
	}
	a := w.newAddress(account, currency, n)
	s.addrs[currency] = append(list, a)
	return a
}

// CurrentAddress answers the current deposit address of a currency.
func (w *Wallet) CurrentAddress(account, currency, network string) (Address, *Error) {
	s, _ := w.lock(account)
	defer w.mu.Unlock()
	c, _, err := w.network(currency, network)
	if err != nil {
		return Address{}, err
	}
	if !c.PayinEnabled {
		return Address{}, refuse(NotAllowed, "deposits of %s are disabled", currency)
	}
	return w.current(s, account, currency, network), nil
}

// NewAddress makes a new deposit address, which becomes the current one.
func (w *Wallet) NewAddress(account, currency, network string) (Address, *Error) {
	s, _ := w.lock(account)
	defer w.mu.Unlock()
	c, n, err := w.network(currency, network)
	if err != nil {
		return Address{}, err
	}
	if !c.PayinEnabled {
		return Address{}, refuse(NotAllowed, "deposits of %s are disabled", currency)
	}
	a := w.newAddress(account, currency, n)
	s.addrs[currency] = append(s.addrs[currency], a)
	return a, nil
}

// Addresses answers the last MaxAddresses deposit addresses, newest first.
func (w *Wallet) Addresses(account, currency, network string) ([]Address, *Error) {
	s, _ := w.lock(account)
	defer w.mu.Unlock()
	if _, _, err := w.network(currency, network); err != nil {
		return nil, err
	}
	if len(s.addrs[currency]) == 0 {
		w.current(s, account, currency, network)
	}
	out := []Address{}
	list := s.addrs[currency]
	for i := len(list) - 1; i >= 0 && len(out) < w.maxAddresses(); i-- {
		if network == "" || list[i].NetworkCode == network {
			out = append(out, list[i])
		}
	}
	return out, nil
}

func (w *Wallet) maxAddresses() int {
	if w.faults.On("V2-ACCOUNT-ADDRESSES-LAST10") {
		return MaxAddresses + 1
	}
	return MaxAddresses
}

// UsedAddresses answers the last MaxAddresses unique addresses withdrawn
// to in a currency, newest first.
func (w *Wallet) UsedAddresses(account, currency, network string) ([]Address, *Error) {
	s, _ := w.lock(account)
	defer w.mu.Unlock()
	if _, _, err := w.network(currency, network); err != nil {
		return nil, err
	}
	out := []Address{}
	seen := map[string]bool{}
	for i := len(s.used) - 1; i >= 0 && len(out) < w.maxAddresses(); i-- {
		a := s.used[i]
		if a.Currency != currency || (network != "" && a.NetworkCode != network) || seen[a.Address] {
			continue
		}
		seen[a.Address] = true
		out = append(out, a)
	}
	return out, nil
}

// IsMine reports whether an address is one of the account's deposit
// addresses.
func (w *Wallet) IsMine(account, address string) bool {
	s, _ := w.lock(account)
	defer w.mu.Unlock()
	for _, list := range s.addrs {
		for _, a := range list {
			if a.Address == address {
				return !w.faults.On("V2-ACCOUNT-IS-MINE")
			}
		}
	}
	return false
}

// FeeLevel is one withdrawal fee level.
type FeeLevel struct {
	ID        int64
	Comment   string
	Fee       decimal.Decimal
	IsDefault bool
}

// Levels answers the fee levels of a withdrawal: slow, standard (the
// default: the network's payout fee, what EstimateFee answers) and fast.
func (w *Wallet) Levels(currency, network string, amount decimal.Decimal) ([]FeeLevel, *Error) {
	_, n, err := w.network(currency, network)
	if err != nil {
		return nil, err
	}
	if !amount.IsPositive() {
		return nil, refuse(Validation, "amount must be positive, got %s", amount)
	}
	fee := decimal.Zero
	if n.PayoutFee != nil {
		fee, _ = decimal.NewFromString(*n.PayoutFee)
	}
	half, two := decimal.RequireFromString("0.5"), decimal.NewFromInt(2)
	return []FeeLevel{
		{ID: 1, Comment: "slow", Fee: fee.Mul(half)},
		{ID: 2, Comment: "standard", Fee: fee, IsDefault: true},
		{ID: 3, Comment: "fast", Fee: fee.Mul(two)},
	}, nil
}

// EstimateFee answers the fee of a withdrawal (the default level's).
func (w *Wallet) EstimateFee(currency, network string, amount decimal.Decimal) (decimal.Decimal, *Error) {
	ls, err := w.Levels(currency, network, amount)
	if err != nil {
		return decimal.Zero, err
	}
	return ls[1].Fee, nil
}

// WithdrawRequest is a withdrawal as a client asked for it.
type WithdrawRequest struct {
	Account, Currency, Network string
	Amount                     decimal.Decimal
	Address, PaymentID         string
	IncludeFee, AutoCommit     bool
	PublicComment              string
}

// Withdraw reserves a withdrawal and, with AutoCommit, commits it. It
// answers the transaction ID.
func (w *Wallet) Withdraw(req WithdrawRequest) (string, *Error) {
	s, now := w.lock(req.Account)
	defer w.mu.Unlock()
	c, n, err := w.network(req.Currency, req.Network)
	if err != nil {
		return "", err
	}
	switch {
	case !c.PayoutEnabled || !n.PayoutEnabled:
		return "", refuse(NotAllowed, "withdrawals of %s over %s are disabled", req.Currency, n.Code)
	case !req.Amount.IsPositive():
		return "", refuse(Validation, "amount must be positive, got %s", req.Amount)
	case strings.TrimSpace(req.Address) == "":
		return "", refuse(Validation, "address is required")
	case len([]rune(req.PublicComment)) > MaxComment && !w.faults.On("V2-LIMIT-PUBLIC-COMMENT"):
		return "", refuse(Validation, "publicComment is %d characters, at most %d", len([]rune(req.PublicComment)), MaxComment)
	}
	fee := decimal.Zero
	if n.PayoutFee != nil {
		fee, _ = decimal.NewFromString(*n.PayoutFee)
	}
	if w.faults.On("V2-ACCOUNT-WITHDRAW-INCLUDE-FEE") {
		// Charges one unit of the last place more than estimate-withdraw says.
		fee = fee.Add(decimal.New(1, -int32(places(n.PrecisionPayout))))
	}
	amount, total := req.Amount, req.Amount.Add(fee)
	if req.IncludeFee {
		amount, total = req.Amount.Sub(fee), req.Amount
		if !amount.IsPositive() {
			return "", refuse(Validation, "amount %s does not cover the fee %s", req.Amount, fee)
		}
	}
	if err := w.led.Reserve(Key(req.Account), req.Currency, total, false, false); err != nil {
		if errors.Is(err, ledger.ErrInsufficient) {
			return "", refuse(Insufficient, "the wallet cannot pay %s %s", total, req.Currency)
		}
		return "", refuse(Validation, "%v", err)
	}
	t := &Transaction{Account: req.Account, Currency: req.Currency, Amount: amount, Fee: fee, Address: req.Address, PaymentID: req.PaymentID,
		Status: StatusCreated, Type: TypePayout, PublicComment: req.PublicComment, NetworkCode: n.Code, CreatedAt: now, UpdatedAt: now,
		total: total, deadline: now.Add(Timeline.CommitWindow)}
	if n.AddressRegex != nil {
		if re, rerr := w.pattern(*n.AddressRegex); rerr == nil && !re.MatchString(req.Address) {
			t.invalid = true
		}
	}
	w.record(s, t)
	s.used = append(s.used, Address{Address: req.Address, PaymentID: req.PaymentID, NetworkCode: n.Code, Currency: req.Currency})
	if req.AutoCommit {
		t.committed, t.commitAt = true, now
	}
	return t.ID, nil
}

func (w *Wallet) pattern(p string) (*regexp.Regexp, error) {
	if re, ok := w.patterns[p]; ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err == nil {
		w.patterns[p] = re
	}
	return re, err
}

func places(precision string) int {
	_, frac, ok := strings.Cut(precision, ".")
	if !ok {
		return 0
	}
	return len(frac)
}

// withdrawal finds an account's payout; caller holds mu.
func withdrawal(s *state, id string) (*Transaction, *Error) {
	t := s.byID[id]
	if t == nil || t.Type != TypePayout {
		return nil, refuse(NotFound, "no withdrawal %q", id)
	}
	return t, nil
}

// Commit commits a withdrawal created with autoCommit false. Committing a
// committed one again answers true (idempotent); one that was rolled back,
// by DELETE or because its hour passed, cannot be committed (600).
func (w *Wallet) Commit(account, id string) (bool, *Error) {
	s, now := w.lock(account)
	defer w.mu.Unlock()
	t, err := withdrawal(s, id)
	if err != nil {
		return false, err
	}
	if t.rolled {
		return false, refuse(NotAllowed, "withdrawal %s was rolled back", id)
	}
	if !t.committed {
		t.committed, t.commitAt, t.UpdatedAt = true, now, now
		return true, nil
	}
	return !w.faults.On("V2-ACCOUNT-WITHDRAW-COMMIT"), nil
}

// Rollback rolls back a withdrawal created with autoCommit false, releasing
// its funds. Rolling back a rolled-back one again answers true
// (idempotent); a committed one cannot be rolled back (600).
func (w *Wallet) Rollback(account, id string) (bool, *Error) {
	s, now := w.lock(account)
	defer w.mu.Unlock()
	t, err := withdrawal(s, id)
	if err != nil {
		return false, err
	}
	if t.committed {
		return false, refuse(NotAllowed, "withdrawal %s is committed", id)
	}
	if !t.rolled {
		w.rollback(t, now)
	}
	return true, nil
}
