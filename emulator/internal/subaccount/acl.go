package subaccount

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/internal/ledger"
)

// ACLs answers the listed sub-accounts' settings, or of every usable one
// when refs is empty; a frozen or disabled one named is Unusable.
func (r *Registry) ACLs(super string, refs []string) ([]ACL, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(refs) == 0 || r.faults.On("V3-SUBACC-ACL-FILTER") {
		var out []ACL
		for _, s := range r.bySuper[super] {
			if usable(s) == nil {
				out = append(out, s.acl)
			}
		}
		return out, nil
	}
	subs, err := r.findAll(super, refs)
	if err != nil {
		return nil, err
	}
	out := make([]ACL, 0, len(subs))
	for _, s := range subs {
		if err := usable(s); err != nil && !r.faults.On("V3-SUBACC-ACL-FROZEN") {
			return nil, err
		}
		out = append(out, s.acl)
	}
	return out, nil
}

// SetACL changes the listed sub-accounts' settings, all or none; a frozen
// or disabled one is Unusable. description nil leaves it as it was.
func (r *Registry) SetACL(super string, refs []string, depositGen, withdraw bool, description *string) ([]ACL, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	subs, err := r.findAll(super, refs)
	if err != nil {
		return nil, err
	}
	for _, s := range subs {
		if err := usable(s); err != nil && !r.faults.On("V3-SUBACC-ACL-FROZEN") {
			return nil, err
		}
	}
	now := r.clock.Now().UTC().Truncate(time.Millisecond)
	out := make([]ACL, 0, len(subs))
	for _, s := range subs {
		next := s.acl
		next.DepositAddressGeneration, next.Withdraw, next.UpdatedAt = depositGen, withdraw, now
		if description != nil {
			next.Description = *description
		}
		if !r.faults.On("V3-SUBACC-ACL-SET") {
			s.acl = next
		}
		out = append(out, next)
	}
	return out, nil
}

// Balances is a sub-account's wallet and trading balances, non-zero only.
type Balances struct {
	Wallet, Spot []ledger.Balance
}

// Balance answers a sub-account's balances, in any state.
func (r *Registry) Balance(super, ref string) (Balances, error) {
	r.mu.Lock()
	s, err := r.find(super, ref)
	if err == nil && s.State != Active && r.faults.On("V3-SUBACC-BALANCE-ANY-STATE") {
		err = refuse(Unusable, "sub-account %s is frozen or disabled", s.ID)
	}
	r.mu.Unlock()
	if err != nil {
		return Balances{}, err
	}
	return Balances{Wallet: r.nonZero(WalletKey(s.ID)), Spot: r.nonZero(s.ID)}, nil
}

func (r *Registry) nonZero(account string) []ledger.Balance {
	var out []ledger.Balance
	for _, b := range r.ledger.Balances(account) {
		if !b.Available.IsZero() || !b.Reserved.IsZero() || r.faults.On("V3-SUBACC-BALANCE") {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Currency < out[j].Currency })
	return out
}

// Lookup answers one of the super account's sub-accounts.
func (r *Registry) Lookup(super, ref string) (Sub, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.find(super, ref)
	if err != nil {
		return Sub{}, err
	}
	return s.Sub, nil
}

// Address is a deterministic deposit address of a sub-account for a
// currency and network: the same request answers the same address.
func Address(id, currency, network string) string {
	h := uint64(14695981039346656037)
	for _, c := range id + "/" + currency + "/" + network {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return fmt.Sprintf("%s%016x%s", strings.ToLower(currency[:min(3, len(currency))]), h, id[:min(8, len(id))])
}
