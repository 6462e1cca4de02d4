package engine

// What the orders of a list do to each other once placed: an execution
// cancels the siblings of a oneCancelOther list, a primary's fill
// activates its secondaries.

// allOrNone executes the orders of an allOrNone list when every one of
// them can fill completely now, and expires them all otherwise. They are
// FOK orders on distinct books, so each fills whole.
func (e *Engine) allOrNone(os []*order, now int64) {
	all := true
	for _, o := range os {
		opp := o.bk.opposite(o.side)
		market := o.marketNow()
		switch {
		case o.postOnly && opp.crossable(o.price, market),
			!opp.fillable(o.price, market, o.remaining()),
			e.fillCap(o) < o.remaining():
			all = false
		}
	}
	if !all && !e.faults.On("V3-LIST-AON") {
		for _, o := range os {
			e.finalize(o, cExpired, now, true)
		}
		return
	}
	for _, o := range os {
		e.admit(o, now, nil, ReportNew)
	}
}

// noteExecution applies the oneCancelOther rule when a list order
// executes: the first execution of an OCO order (a partial fill counts)
// cancels the other orders of its list, and of an activated OTOCO
// secondary the other secondary. The canceled orders are marked doomed
// and leave at once where they can, else when the matching in progress
// ends (drain).
func (e *Engine) noteExecution(o *order) {
	l := o.list
	switch {
	case l.fired:
		return
	case l.typ == OneCancelOther:
		if e.faults.On("V3-LIST-OCO") {
			return
		}
	case l.typ == OneTriggerOneCancelOther && o.listIdx() > 0:
	default:
		return
	}
	l.fired = true
	for _, s := range l.orders {
		switch {
		case s == o || !s.active() || s.doomed:
		case l.typ == OneTriggerOneCancelOther && s.listIdx() == 0:
			// The primary: filled already, or the pair would not be active.
		default:
			s.doomed = true
			e.doomed = append(e.doomed, s)
		}
	}
}

// listEnded applies the trigger rules when a list order ends: a filled
// primary of OTO or OTOCO activates its waiting secondaries (after the
// matching in progress, see drain); a primary ending otherwise cancels them.
func (e *Engine) listEnded(o *order) {
	l := o.list
	if o.listIdx() != 0 || (l.typ != OneTriggerOther && l.typ != OneTriggerOneCancelOther) {
		return
	}
	for _, s := range l.orders[1:] {
		if !s.inactive || !s.active() {
			continue
		}
		switch {
		case o.status != cFilled:
			if !s.doomed {
				s.doomed = true
				e.doomed = append(e.doomed, s)
			}
		case l.typ == OneTriggerOther && e.faults.On("V3-LIST-OTO"):
			// The broken rule: the secondaries never activate.
		default:
			e.activations = append(e.activations, s)
		}
	}
}

// activate places a secondary whose primary filled.
func (e *Engine) activate(o *order, now int64) {
	o.inactive = false
	o.updated = now
	if isStop(o.typ) && !o.triggered {
		if o.mg != nil && o.mg.closePos {
			if n := e.closeSize(o); n > 0 {
				o.setQty(n) // sized now; resized again when it fires
			}
		}
		o.status = cSuspended
		o.bk.park(o)
		e.emitOrder(o, ReportActivated, nil)
		return
	}
	if e.ready(o, now) {
		e.execute(o, now, nil, ReportActivated)
	}
}

// drain runs what matching left for later, until nothing is left: orders
// an order list canceled, the stop orders that trades reached (on every
// book: a list spans several), and secondaries a primary activated — last,
// so that a stop secondary fires on trades after its activation only, as
// any stop fires on trades after its creation.
func (e *Engine) drain(now int64) {
	for {
		if len(e.doomed) > 0 {
			o := e.doomed[0]
			e.doomed[0] = nil
			e.doomed = e.doomed[1:]
			if o.active() {
				e.unlink(o)
				e.finalize(o, cCanceled, now, true)
			}
			continue
		}
		fired := false
		for _, bk := range e.bookList {
			if bk.traded {
				e.runTriggers(bk, now)
				fired = true
			}
		}
		if fired {
			continue
		}
		if len(e.activations) == 0 {
			e.doomed, e.activations = nil, nil
			return
		}
		o := e.activations[0]
		e.activations[0] = nil
		e.activations = e.activations[1:]
		if o.inactive && o.active() && !o.doomed {
			e.activate(o, now)
		}
	}
}
