package v2

import (
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/v2shape"
	"github.com/conform-harness/conform/emulator/internal/wallet"
	"strconv"
	"time"
)

// transactionJSON is the v2 Wallet transaction resource.
type transactionJSON struct {
	ID            string   `json:"id"`
	Index         any      `json:"index"`
	Currency      string   `json:"currency"`
	Amount        string   `json:"amount"`
	Fee           string   `json:"fee"`
	Address       string   `json:"address"`
	PaymentID     string   `json:"paymentId,omitempty"`
	Hash          string   `json:"hash"`
	Status        string   `json:"status"`
	Type          string   `json:"type"`
	SubType       string   `json:"subType,omitempty"`
	Senders       []string `json:"senders,omitempty"`
	OffchainID    []string `json:"offchainId"`
	Confirmations *int64   `json:"confirmations,omitempty"`
	PublicComment string   `json:"publicComment,omitempty"`
	ErrorCode     string   `json:"errorCode,omitempty"`
	CreatedAt     string   `json:"createdAt"`
	UpdatedAt     string   `json:"updatedAt"`
}

func newTransaction(t wallet.Transaction, showSenders bool, d Deps) transactionJSON {
	out := transactionJSON{ID: t.ID, Index: t.Index, Currency: t.Currency, Amount: t.Amount.String(), Fee: t.Fee.String(),
		Address: t.Address, PaymentID: t.PaymentID, Hash: t.Hash, Status: t.Status, Type: t.Type, SubType: t.SubType,
		OffchainID: []string{}, Confirmations: t.Confirmations, PublicComment: t.PublicComment, ErrorCode: t.ErrorCode,
		CreatedAt: v2shape.Time(t.CreatedAt), UpdatedAt: v2shape.Time(t.UpdatedAt)}
	if (showSenders || d.Faults.On("V2-TX-SHOW-SENDERS")) && t.Type == wallet.TypePayin {
		out.Senders = t.Senders
	}
	if d.Faults.On("V2-TX-STATUS-VALUES") && t.Status == wallet.StatusSuccess {
		out.Status = "completed"
	}
	if d.Faults.On("V2-TX-FIELDS") {
		out.Index = strconv.FormatInt(t.Index, 10)
	}
	if d.Faults.On("V2-TX-PAYOUT") {
		out.PublicComment = ""
	}
	if d.Faults.On("V2-TX-TIMES") {
		out.UpdatedAt = v2shape.Time(t.CreatedAt.Add(-time.Second))
	}
	return out
}

// txQuery reads the /account/transactions parameters.
func txQuery(r *api.Request, d Deps) (wallet.Query, bool, *api.Error) {
	p := r.Params
	q := wallet.Query{Account: r.Principal.Account}
	q.Currency, _ = p.String("currency")
	if d.Faults.On("V2-TX-FILTER") {
		q.Currency = ""
	}
	sort, err := p.Enum("sort", "DESC", "ASC", "DESC")
	if err != nil {
		return q, false, err
	}
	q.SortAsc = sort == "ASC" || (d.Faults.On("V2-TX-SORT") && !p.Has("sort"))
	by, err := p.Enum("by", "timestamp", "timestamp", "index")
	if err != nil {
		return q, false, err
	}
	q.ByIndex = by == "index"
	if q.ByIndex && !d.Faults.On("V2-TX-BY-INDEX") {
		if q.FromIndex, err = idBound(p, "from"); err != nil {
			return q, false, err
		}
		if q.TillIndex, err = idBound(p, "till"); err != nil {
			return q, false, err
		}
	} else if !q.ByIndex && !d.Faults.On("V2-TX-BY-TIMESTAMP") {
		if q.From, q.Till, err = timeBounds(p); err != nil {
			return q, false, err
		}
	}
	limit, offset, err := paging(p, d, txFaults)
	if err != nil {
		return q, false, err
	}
	q.Limit, q.Offset = max(limit, 0), offset
	show, err := p.Bool("showSenders", false)
	return q, show, err
}

func transferRoutes(d Deps) []api.Route {
	w := d.Wallet
	payment, withdraw := auth.RightPayment, auth.RightWithdraw
	return []api.Route{
		{Method: "POST", Path: "/account/transfer", Right: payment, Handle: func(r *api.Request) (any, *api.Error) {
			c, err := required(r.Params, "currency")
			if err != nil {
				return nil, err
			}
			amt, err := requiredDecimal(r.Params, "amount")
			if err != nil {
				return nil, err
			}
			typ, err := required(r.Params, "type")
			if err != nil && d.Faults.On("V2-ACCOUNT-TRANSFER-REQUIRED") {
				typ, err = wallet.TypeBankToExchange, nil // the fault: a missing type reads as bankToExchange
			}
			if err != nil {
				return nil, err
			}
			if d.Faults.On("V2-ACCOUNT-TRANSFER-TYPE") && typ != wallet.TypeExchangeToBank {
				typ = wallet.TypeBankToExchange
			}
			id, werr := w.Transfer(r.Principal.Account, c, amt, typ)
			if werr != nil {
				return nil, walletError(werr, d)
			}
			return map[string]string{"id": id}, nil
		}},
		{Method: "POST", Path: "/account/transfer/internal", Right: withdraw, Handle: func(r *api.Request) (any, *api.Error) {
			var vals [4]string
			for i, name := range []string{"currency", "by", "identifier"} {
				v, err := required(r.Params, name)
				if err != nil && name == "by" && d.Faults.On("V2-ACCOUNT-INTERNAL-REQUIRED") {
					v, err = "username", nil // the fault: a missing by reads as username
				}
				if err != nil {
					return nil, err
				}
				vals[i] = v
			}
			amt, err := requiredDecimal(r.Params, "amount")
			if err != nil {
				return nil, err
			}
			if d.Faults.On("V2-ACCOUNT-INTERNAL-BY") && vals[1] != "email" {
				vals[1] = "username"
			}
			id, werr := w.Internal(r.Principal.Account, vals[0], amt, vals[1], vals[2])
			if werr != nil {
				return nil, walletError(werr, d)
			}
			return map[string]string{"result": id}, nil
		}},
		{Method: "POST", Path: "/account/crypto/transfer-convert", Right: payment, Handle: func(r *api.Request) (any, *api.Error) {
			from, err := required(r.Params, "fromCurrency")
			if err != nil {
				return nil, err
			}
			to, err := required(r.Params, "toCurrency")
			if err != nil {
				return nil, err
			}
			amt, err := requiredDecimal(r.Params, "amount")
			if err != nil && !r.Params.Has("amount") && d.Faults.On("V2-ACCOUNT-CONVERT-REQUIRED") {
				amt, err = one, nil // the fault: a missing amount reads as 1
			}
			if err != nil {
				return nil, err
			}
			ids, werr := w.Convert(r.Principal.Account, from, to, amt)
			if werr != nil {
				return nil, walletError(werr, d)
			}
			if d.Faults.On("V2-ACCOUNT-TRANSFER-CONVERT") {
				ids = []string{}
			}
			return map[string][]string{"result": ids}, nil
		}},
		{Method: "GET", Path: "/account/transactions", Right: payment, Handle: func(r *api.Request) (any, *api.Error) {
			q, show, err := txQuery(r, d)
			if err != nil {
				return nil, err
			}
			out := []transactionJSON{}
			for _, t := range w.Transactions(q) {
				out = append(out, newTransaction(t, show, d))
			}
			return out, nil
		}},
		{Method: "GET", Path: "/account/transactions/{id}", Right: payment, Handle: func(r *api.Request) (any, *api.Error) {
			id := r.PathValue("id")
			if d.Faults.On("V2-TX-ONE") {
				if ts := w.Transactions(wallet.Query{Account: r.Principal.Account, Limit: 1}); len(ts) > 0 {
					id = ts[0].ID
				}
			}
			t, werr := w.Transaction(r.Principal.Account, id)
			if werr != nil {
				return nil, walletError(werr, d)
			}
			show, _ := r.Params.Bool("showSenders", false)
			return newTransaction(t, show, d), nil
		}},
	}
}
