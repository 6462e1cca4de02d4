package wallet

import (
	"slices"
	"time"
)

// Query selects wallet transactions.
type Query struct {
	Account   string
	Currency  string
	SortAsc   bool
	ByIndex   bool // default by timestamp
	From      *time.Time
	Till      *time.Time
	FromIndex *int64
	TillIndex *int64
	Limit     int
	Offset    int
}

// Transactions answers an account's transactions.
func (w *Wallet) Transactions(q Query) []Transaction {
	s, _ := w.lock(q.Account)
	defer w.mu.Unlock()
	var sel []*Transaction
	for _, t := range s.txs {
		switch {
		case q.Currency != "" && t.Currency != q.Currency,
			q.From != nil && t.CreatedAt.Before(*q.From),
			q.Till != nil && t.CreatedAt.After(*q.Till),
			q.FromIndex != nil && t.Index < *q.FromIndex,
			q.TillIndex != nil && t.Index > *q.TillIndex:
			continue
		}
		sel = append(sel, t)
	}
	if !q.ByIndex {
		slices.SortStableFunc(sel, func(a, b *Transaction) int { return a.CreatedAt.Compare(b.CreatedAt) })
	}
	if !q.SortAsc {
		slices.Reverse(sel)
	}
	out := []Transaction{}
	for i := q.Offset; i < len(sel) && len(out) < q.Limit; i++ {
		out = append(out, *sel[i])
	}
	return out
}

// Transaction answers one transaction.
func (w *Wallet) Transaction(account, id string) (Transaction, *Error) {
	s, _ := w.lock(account)
	defer w.mu.Unlock()
	t := s.byID[id]
	if t == nil {
		return Transaction{}, refuse(NotFound, "no transaction %q", id)
	}
	return *t, nil
}
