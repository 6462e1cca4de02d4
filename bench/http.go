package main

import "time"

func compareHTTP(rounds int, d time.Duration) error { return nil }

func compareLoad(rounds int, d time.Duration) error { return nil }
