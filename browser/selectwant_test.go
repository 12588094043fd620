package browser

// OptionValue selects the option whose value is v.
func OptionValue(v string) SelectWant { return SelectWant{Value: &v} }
