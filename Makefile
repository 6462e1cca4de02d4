# conform: conformance and load harness for the exchange API.
# The two commands of the README: `make conform` (the main job) and `make test`.

GO      ?= go
BIN     := bin
REPORTS ?= reports
# The wire runs' tables and logs: not in $(REPORTS), which holds only what conform wrote (conform refuses an --out
# holding anything else).
WIREOUT ?= $(REPORTS)-wire
# Two suite processes per CPU, 4 to 8: specs mostly wait (see defaultProcs in cmd/conform/run.go).
PROCS   ?= $(shell n=$$(( $$(nproc 2>/dev/null || echo 2) * 2 )); [ $$n -lt 4 ] && n=4; [ $$n -gt 8 ] && n=8; echo $$n)
ARGS    ?=

.PHONY: rules.yaml all build cli conform test unit unit-race unit-deep unit-pkgs unit-cli unit-timed suite coverage trust trust-parallel trust-timed remote remote-fast clients mutation fuzz vet bench load clean bench-compare soak wiremut wirebenign wirebenign-fast

all: build

## build: the conform CLI, the precompiled suite and the Ginkgo CLI, in bin/
build:
	$(GO) build -o $(BIN)/conform ./cmd/conform
	$(GO) test -c -o $(BIN)/suites.test ./suites
	$(GO) build -o $(BIN)/ginkgo github.com/onsi/ginkgo/v2/ginkgo

## cli: the conform CLI alone, in bin/ (what bench-compare's load comparison runs)
cli:
	$(GO) build -o $(BIN)/conform ./cmd/conform

## conform: run every suite against the embedded emulator (or TARGET=URL), reports in ./reports
conform: build
	$(BIN)/conform run --procs $(PROCS) --out $(REPORTS) $(if $(TARGET),--target $(TARGET)) $(ARGS)

## test: everything that proves the harness works; CI runs this. Three stages, run by internal/stages/maketest: one
## line per stage with each step's time, a progress line at least every 15 s, and a step's output (its log in
## bin/test/) only when it failed; each step's log ends with the CPU it used. A step may wait for another of its
## stage (@target) and run at the lowest CPU priority (~: nice 19). make test is CPU-bound on two cores: its steps
## collect garbage a quarter as often (GOGC=400).
## 1. What only computes, side by side: gofmt and go vet, the package tests under -race (cmd/conform's a step of
##    its own, so that its long compile and link overlap the other packages'), the build, the property tests at full
##    depth. (At the lowest priority beside stage 2 they saved half a minute, but a package's timed
##    test, a slow stream subscriber's close and a candle query's bound, then failed one run in three.)
## 2. The conformance run, then its coverage check and the trust checks (which read its reports as their full run),
##    beside the benign wire check: CPU-bound, and timing nothing but the limit windows its runs tell apart.
## 3. The remote-sandbox profile (make remote-fast, eight account sets over 5 ms each way: it waits on round trips
##    and one address's budget for two minutes and judges limit rows from one address at its end), the package tests
##    that offer load at a measured rate (unit-timed) and conform load's verdict checks (trust-timed), all needing
##    a harness on time but little CPU; once the timed tests ended (beside lowest-priority work a generator at 200
##    requests a second still fell 2% short), the mutation run at the lowest priority beside the remote profile, its
##    baseline read from the conformance run's report (MUTATION_BASELINE): a fault it could not kill beside the
##    others (a limit row inconclusive, a stream deadline missed) runs again at its end, two at a time.
## A failing step fails make test (a stage with a failure runs to its end; later stages do not start).
## Fuzzing explores for minutes and is not a step: make fuzz (the fuzz targets' seed corpora run in unit-race).
test:
	@$(GO) run ./internal/stages/maketest -logs $(BIN)/test \
	  'vet unit-pkgs unit-cli build unit-deep' \
	  '-j3+conform-check+coverage+trust-parallel wirebenign-fast' \
	  'remote-fast+REMOTE_DELAY=5ms+REMOTE_SETS=8 unit-timed+trust-timed ~mutation+MUTATION_BASELINE=$(REPORTS)/ginkgo.json+@trust-timed'

vet:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

## unit: package tests (not the conformance suite, which conform-check runs)
## The tests that offer load at a measured rate (package load, conform load's and the real clients' in cmd/conform)
## run after the others, one package at a time (unit-timed): beside other tests on two cores the generator itself
## falls short of the rate and the verdicts turn INVALID. unit-race runs every other test: the other packages'
## (unit-pkgs) and cmd/conform's but those (unit-cli: -skip, the complement of unit-timed's -run).
TIMED_CLI := ^(TestLoad|TestClients)
unit:
	@$(MAKE) --no-print-directory unit-race unit-deep
	@$(MAKE) --no-print-directory unit-timed

unit-race: unit-pkgs unit-cli

## -p 4: go test's default of one package per CPU left a core idle half the time (tests waiting on sockets, timers,
## Chromium); eight at a time at make test's lowest priority starved a package's timed test (79 s for the market one)
unit-pkgs:
	$(GO) test -race -count=1 -p 4 $$($(GO) list ./... | grep -v -e '/suites$$' -e '/load$$' -e '/cmd/conform$$')

unit-cli:
	$(GO) test -race -count=1 -skip '$(TIMED_CLI)' ./cmd/conform/

## unit-deep: the randomized property tests of the engine and the fixed-point amounts at their full depth, without
## -race (under it they run a quarter of their steps: single goroutine, the detector has little to find there)
DEEP := ^(TestConservation|TestFixedPointAgreesWithDecimals|TestHistoryRing|TestRecycledHistory|TestAgainstDecimal)$$
unit-deep:
	$(GO) test -count=1 -run '$(DEEP)' ./emulator/internal/engine/ ./emulator/internal/fixed/

unit-timed:
	$(GO) test -race -count=1 ./load/
	$(GO) test -race -count=1 -run '$(TIMED_CLI)' ./cmd/conform/

## coverage: every testable rule has a spec that runs on the emulator (not one that skips everywhere) and a fault,
## every spec names a known rule, and the checked-in rules.yaml is what the code says
coverage: conform-check
	$(BIN)/conform rules --check --results $(REPORTS)/results.json
	@$(BIN)/conform rules --yaml > $(BIN)/rules.yaml.new && diff -u rules.yaml $(BIN)/rules.yaml.new > $(BIN)/rules.yaml.diff \
	  || { echo "rules.yaml is stale (make rules.yaml regenerates it):"; head -40 $(BIN)/rules.yaml.diff; exit 1; }

## rules.yaml: regenerate the checked-in catalogue (rule, area, section, sentence, specs, fault), and the counts of
## rules and faults in README.md and docs/ (TestDocsCounts checks them)
rules.yaml: build
	$(BIN)/conform rules --yaml > rules.yaml
	$(GO) test -count=1 -run '^TestDocsCounts$$' ./cmd/conform/ -update-docs

## conform-check: the full conformance run must pass against the emulator
conform-check: build
	$(BIN)/conform run --procs $(PROCS) --out $(REPORTS)

## trust: the built CLI aimed at targets other than the embedded emulator: no secret in any artifact,
## no authenticated mutating request on an undeclared target, a sandbox on one account set runs green serially
## (an account set per process: make remote's certification). Every check runs side by side (-parallel: go test's
## default is one per CPU): they mostly wait.
trust: trust-parallel trust-timed

## trust-parallel: every trust check but those that offer load at a measured rate, side by side. The interrupted
## run's check compares with conform-check's full run (CONFORM_FULL_RUN: read only, $(REPORTS) holds conform's
## files alone) instead of running one of its own.
TIMED_TRUST := ^TestTrustLoadVerdicts$$
trust-parallel: build conform-check
	CONFORM_FULL_RUN=$(abspath $(REPORTS)) CONFORM_BIN=$(abspath $(BIN)) $(GO) test -count=1 -parallel 16 -run '^TestTrust' -skip '$(TIMED_TRUST)' ./cmd/conform/

## trust-timed: the trust checks of conform load's verdicts, which offer load at a measured rate: not beside make
## test's CPU-bound steps at the same priority (load average near 20), where the generator falls short of 50
## requests a second
trust-timed: build
	CONFORM_BIN=$(abspath $(BIN)) $(GO) test -count=1 -run '$(TIMED_TRUST)' ./cmd/conform/

## remote: the remote-sandbox profile (issue 24): conform run --certify --procs 2 with keys of two account sets in a
## config file, against the emulator with its control plane off behind internal/netsim (TLS with a private CA given as
## ca_file, 20 ms each way, every connection from one address), which runs a process per account set, leaks no
## secret and bundles only conform's files; and an untrusted or wrong-host certificate is one line, exit 3, before any
## spec. -v: the run's wall time and the rules it could not judge, by reason, are its figures.
## REMOTE_DELAY: the stand-in's one-way latency (default 20ms, issue 24's path, where the certification's 240 s bound
## is judged); make test's profile runs a 5 ms path to keep within its own time.
REMOTE_DELAY ?=
## The certification runs after the other remote checks, alone: its time is a figure of record.
remote: build
	@CONFORM_REMOTE_DELAY=$(REMOTE_DELAY) CONFORM_BIN=$(abspath $(BIN)) $(GO) test -count=1 -parallel 4 -timeout 30m -v -run '^TestRemote' -skip '^TestRemoteSandboxCertification$$' ./cmd/conform/ > $(BIN)/remote.log 2>&1 \
	  && CONFORM_REMOTE_DELAY=$(REMOTE_DELAY) CONFORM_BIN=$(abspath $(BIN)) $(GO) test -count=1 -timeout 30m -v -run '^TestRemoteSandboxCertification$$' ./cmd/conform/ >> $(BIN)/remote.log 2>&1; \
	  s=$$?; grep -v -e '^=== ' $(BIN)/remote.log; exit $$s

## remote-fast: make test's remote-sandbox profile: every remote check side by side, over REMOTE_DELAY (make test: 5 ms
## each way) with REMOTE_SETS account sets and as many processes (make test: 8; make remote's figure of record is
## issue 24's two). The other checks (about 35 s) overlap the certification's first minutes, where it waits on round
## trips, and end long before its limit phase, which comes last in its run; its wall time is not a figure of record.
REMOTE_SETS ?=
remote-fast: build
	@CONFORM_REMOTE_SETS=$(REMOTE_SETS) CONFORM_REMOTE_DELAY=$(REMOTE_DELAY) CONFORM_BIN=$(abspath $(BIN)) $(GO) test -count=1 -parallel 8 -timeout 30m -v -run '^TestRemote' ./cmd/conform/ > $(BIN)/remote.log 2>&1; \
	  s=$$?; grep -v -e '^=== ' $(BIN)/remote.log; exit $$s

## clients: real client libraries, unchanged but for the base URL, against the built `conform emulate`:
## ccxt's hitbtc (clients/ccxt, pinned; installed with npm ci when missing); any failed call fails the target
clients: build
	@test -d clients/ccxt/node_modules/ccxt || npm ci --prefix clients/ccxt --no-audit --no-fund
	CONFORM_BIN=$(abspath $(BIN)) CONFORM_CLIENTS=require $(GO) test -count=1 -run '^TestClients' ./cmd/conform/

## mutation: every fault of the emulator must be killed by its rule's specs (full table).
## MUTATION_BASELINE: the Ginkgo report of a whole conform run of the same suite against the embedded emulator, read
## as the fault-free baseline instead of running it again (make test gives conform-check's, $(REPORTS)/ginkgo.json)
MUTATION_BASELINE ?=
mutation: build
	$(BIN)/conform mutate --out $(REPORTS) $(if $(MUTATION_BASELINE),--baseline $(MUTATION_BASELINE))


## fuzz: short runs (FUZZTIME executions each) of the emulator's request-decoding fuzz tests; FUZZTIME=5m for a long one
FUZZTIME ?= 20000x
fuzz:
	$(GO) test ./emulator/ -run '^$$' -fuzz '^FuzzEmulator$$' -fuzztime $(FUZZTIME)
	$(GO) test ./emulator/internal/api/ -run '^$$' -fuzz '^FuzzParseParams$$' -fuzztime $(FUZZTIME)
	$(GO) test ./emulator/internal/api/v3/ -run '^$$' -fuzz '^FuzzMarketParams$$' -fuzztime $(FUZZTIME)
	$(GO) test ./emulator/internal/api/v3/ -run '^$$' -fuzz '^FuzzLists$$' -fuzztime $(FUZZTIME)
	$(GO) test ./emulator/internal/jsonrpc/ -run '^$$' -fuzz '^FuzzHandle$$' -fuzztime $(FUZZTIME)

## bench: engine in process, order placement over HTTP beside a bare handler, limiter
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./emulator/internal/engine/ ./emulator/internal/limits/
	$(GO) test -run '^$$' -bench 'HTTP' -benchtime 3s ./emulator/

## load: a short capacity run (mixed scenario, 200/s for 10 s) against the embedded emulator, report in reports/load
load: build
	$(BIN)/conform load --scenario mixed --rate 200/s --duration 10s --out $(REPORTS)/load --threshold 'p99<50ms' --threshold 'success>0.99'

clean:
	rm -rf $(BIN) $(REPORTS) $(WIREOUT)

## bench-compare: our engine beside github.com/i25959341/orderbook on its own workload, conform load beside wrk (on a
## trivial net/http endpoint, then on a light target), HTTP placement beside a bare handler, the ws fan-out (5000
## subscribers) beside a trivial broadcast server; in its own module (bench/), ratios are the figures of record; the
## load pairs need wrk (apt-get install wrk)
bench-compare: cli
	cd bench && $(GO) run . $(ARGS)

## soak: the emulator at the documented trading rate for SOAK_DURATION (default 10m), RSS over time, which must stay
## within ±10% after the warm-up (history bounded by its retention); not part of make test
SOAK_DURATION ?= 10m
soak:
	cd bench && $(GO) run . -only soak -soak-duration $(SOAK_DURATION)

## wiremut: faults injected on the wire (a response-mutating proxy between the suite and the emulator); minutes, not in make test
wiremut: build
	@mkdir -p $(WIREOUT); WIREMUT=1 CONFORM_BIN=$(abspath $(BIN)) WIREMUT_OUT=$(abspath $(WIREOUT)) $(GO) test -count=1 -timeout 60m -v -run '^TestWireMutations$$' ./internal/wiremut/ > $(WIREOUT)/wiremut.log 2>&1; \
	  s=$$?; cat $(WIREOUT)/wiremut.md 2>/dev/null; [ $$s -eq 0 ] || tail -20 $(WIREOUT)/wiremut.log; exit $$s

## wirebenign: wire changes the documents allow (unknown fields, key order, whitespace, gzip, chunks, headers, closed
## connections, latency, fragmented frames, pings) must each leave every area green; minutes, not in make test
wirebenign: build
	@mkdir -p $(WIREOUT); WIREMUT_BENIGN=1 CONFORM_BIN=$(abspath $(BIN)) WIREMUT_OUT=$(abspath $(WIREOUT)) $(GO) test -count=1 -timeout 60m -v -run '^TestWireBenign$$' ./internal/wiremut/ > $(WIREOUT)/wirebenign.log 2>&1; \
	  s=$$?; cat $(WIREOUT)/wirebenign.md 2>/dev/null; [ $$s -eq 0 ] || grep -E 'FAIL|red|idle' $(WIREOUT)/wirebenign.log | head -40; exit $$s

## wirebenign-fast: one combined benign mutation (unknown fields, reversed keys, gzip, fragmented frames) over the
## areas of wiremut.FastBenignAreas; the regression check of make test
wirebenign-fast: build
	CONFORM_BIN=$(abspath $(BIN)) $(GO) test -count=1 -run '^TestWireBenignFast$$' ./internal/wiremut/
