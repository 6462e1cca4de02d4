package target

import (
	"encoding/json"
	"fmt"
	"strings"
)

// SuiteEnv names the environment variable through which conform run hands
// every suite process the run's one target, finished: the config file and
// the environment read, the flags applied, validated and resolved (Resolve,
// then Apply), as JSON (Handoff). The suite reads it as it is and overlays
// nothing. An environment variable rather than a flag or a file: the config
// holds keys, which a command line shows to every user of the machine and a
// file would leave behind. Unset or empty: the embedded emulator.
const SuiteEnv = "CONFORM_SUITE_TARGET"

// Handoff renders a finished config as the value of SuiteEnv.
func (c Config) Handoff() (string, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("target config: %w", err)
	}
	return string(b), nil
}

// FromHandoff reads what Handoff wrote; an empty value is the zero config
// of the embedded emulator. A field it does not know is an error: the CLI
// and the suite are built from one tree.
func FromHandoff(s string) (Config, error) {
	var c Config
	if s == "" {
		return c, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Config{}, fmt.Errorf("%s: the target handed down by conform run: %w", SuiteEnv, err)
	}
	return c, nil
}
