package engine

import (
	"cmp"
	"slices"

	"github.com/conform-harness/conform/emulator/internal/fixed"
)

// finalize ends an order's life with status at time at: its remaining
// reservation goes back to available (unless release is false), it leaves
// the active set, and, when it never executed, it is scheduled to leave
// history. The caller has already taken it off the book.
func (e *Engine) finalize(o *order, status statusCode, at int64, release bool) {
	o.status = status
	o.updated = at
	if status != cFilled && !o.superseded {
		// A fill was reported with its trade; a replaced order by its
		// replacement.
		e.emitOrder(o, reportOf(status), nil)
	}
	if release && o.resv.IsPositive() {
		// An error means the ledger was reset under the engine; the funds
		// it would release no longer exist.
		if r := o.resvRef(); r != nil {
			_ = e.lh.ReleaseRef(r, o.resv)
		} else {
			_ = e.lh.ReleaseAmount(o.resvAccount(), o.resvCurrency(), o.resv)
		}
		o.resv = fixed.Amount{}
	}
	a := o.acct
	if a.removeActive(o) {
		a.perSym[o.bk.idx]--
		if a.trimAt > 0 && a.trimAt <= a.hist.len() && o.id <= a.hist.at(a.trimAt-1).id {
			// The cursor passed it while it was active.
			a.behind = append(a.behind, o.id)
		}
	}
	if o.list != nil && !o.replaced {
		e.listEnded(o)
	}
	if o.filled == 0 && !e.faults.On("V3-SPOT-HISTORY-24H") {
		o.purgeAt = at + int64(historyRetention)
		e.purges.push(deadline{at: o.purgeAt, o: o})
		if i := a.entryOf(o); i < a.hist.len() {
			a.hist.at(i).scheduled = true
		}
	}
	e.retain(a)
	e.recycle(o)
}

// newOrder is a zero order record, reused when one is free.
func (e *Engine) newOrder() *order {
	if n := len(e.free); n > 0 {
		o := e.free[n-1]
		e.free[n-1] = nil
		e.free = e.free[:n-1]
		*o = order{}
		return o
	}
	return &order{}
}

// recycle hands the record of final order o back for reuse when nothing
// but history can reach it, history keeping the order in compact form
// instead. Reused while still in the cache, records cost no fresh memory
// per placement (at a history of 100,000 orders per account, writing and
// collecting fresh ones was a fifth of the engine's time). That holds
// for plain spot orders with generated IDs: no list, margin, deadline,
// purge schedule, extra field or index entry refers to them.
func (e *Engine) recycle(o *order) {
	a := o.acct
	// A final order is off its book and out of the active set (finalize's
	// callers unlink it first); what else could still reach it is ruled
	// out here, and a deleted or already compact entry by entryOf.
	if e.keepRecords || o.active() || o.mg != nil || o.list != nil || o.x != nil || !o.genID || a.foreignHex ||
		o.deadline != 0 || o.purgeAt != 0 {
		return
	}
	i := a.entryOf(o)
	if i == a.hist.len() {
		return
	}
	h := a.hist.at(i)
	h.c = compactRec{bk: o.bk, qty: o.qty, filled: o.filled, price: o.price, stop: o.stop, cum: o.cum,
		created: o.created, updated: o.updated, status: o.status, side: o.side, typ: o.typ, tif: o.tif,
		postOnly: o.postOnly, triggered: o.triggered}
	h.o = nil
	e.freed = append(e.freed, o)
}

func reportOf(s statusCode) ReportType {
	if s == cExpired {
		return ReportExpired
	}
	return ReportCanceled
}

// purge deletes the final order of history entry i of a from history; its
// client_order_id becomes free again. It reads nothing of the order unless
// the account's index of chosen IDs holds it.
func (e *Engine) purge(a *account, i int) {
	h := a.hist.at(i)
	if h.o != nil {
		h.o.deleted = true
	}
	h.deleted = true
	if h.scheduled {
		e.purgedEarly++ // its entry in purges is now dead weight
	}
	if h.o != nil && (!h.genID || a.foreignHex) {
		a.unindex(h.o)
	}
	// History lets go of the record at once: deleted entries behind an
	// active one linger until compaction, and the records they held were
	// 40% of the heap.
	h.o = nil
	a.deleted++
	if i == 0 {
		// The front goes at once; the cursor moves with the entries.
		k := a.hist.popDeleted()
		a.deleted -= k
		a.trimAt = max(0, a.trimAt-k)
	}
	if a.deleted > 1024 && a.deleted*2 > a.hist.len() {
		a.hist.compact()
		a.deleted, a.trimAt = 0, 0
	}
}

// retain keeps an account's history within Retention.Orders final orders,
// deleting the oldest first; a cursor spares rescanning what it passed.
// Entries of the purge schedule whose order left early are dropped once
// they are the larger part, so that the schedule stays bounded too.
func (e *Engine) retain(a *account) {
	for final := a.hist.len() - a.deleted - len(a.active); final > e.opts.Retention.Orders && (len(a.behind) > 0 || a.trimAt < a.hist.len()); {
		if len(a.behind) > 0 {
			// Orders that ended behind the cursor are older than any
			// record ahead of it: they go first, oldest first.
			j := 0
			for k, id := range a.behind {
				if id < a.behind[j] {
					j = k
				}
			}
			id := a.behind[j]
			a.behind[j] = a.behind[len(a.behind)-1]
			a.behind = a.behind[:len(a.behind)-1]
			if i := a.find(id); i < a.hist.len() && !a.hist.at(i).deleted && !a.hist.at(i).isActive() {
				e.purge(a, i)
				final--
			}
			continue
		}
		i := a.trimAt
		a.trimAt++
		if h := a.hist.at(i); h.deleted || h.isActive() {
			continue
		}
		e.purge(a, i) // may compact history and reset the cursor
		final--
	}
	if e.purgedEarly > 1024 && e.purgedEarly*2 > len(e.purges) {
		kept := e.purges[:0]
		for _, d := range e.purges {
			if !d.o.deleted {
				kept = append(kept, d)
			}
		}
		clear(e.purges[len(kept):])
		// A slice sorted by time is a valid min-heap.
		slices.SortFunc(kept, func(x, y deadline) int { return cmp.Compare(x.at, y.at) })
		e.purges, e.purgedEarly = kept, 0
	}
}

// unlink takes an active order off its book or out of the stop lists.
func (e *Engine) unlink(o *order) {
	switch {
	case o.lvl != nil:
		o.bk.sideOf(o.side).remove(o)
		e.emitLevel(o.bk, o.side, o.price)
	case o.status == cSuspended:
		o.bk.unpark(o)
	}
}

// register gives a validated order its ID and makes it one of the account's
// active orders.
func (e *Engine) register(o *order) {
	e.lastOrderID++
	o.id = e.lastOrderID
	a := o.acct
	e.index(a, o)
	o.histAt = a.hist.push(histEntry{o: o, id: o.id, genSeq: o.genSeq, genID: o.genID})
	a.addActive(o)
	a.perSym[o.bk.idx]++
}
