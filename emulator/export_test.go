package emulator

// V2Conns is how many v2 stream connections e counts open (for tests).
func (e *Emulator) V2Conns() int { return e.v2streams.Conns() }
