package stepopt

import "fmt"

// DialogAnswer is how to answer a dialog (alert, confirm, prompt,
// beforeunload): "accept", "dismiss", true (accept) or false (dismiss),
// or {accept, promptText} ({action: "accept"|"dismiss"} also).
type DialogAnswer struct {
	// Dismiss answers with Cancel; otherwise the dialog is accepted.
	Dismiss bool
	// PromptText is what an accepted prompt() receives.
	PromptText string
}

// DecodeOption reads one of the dialog answer's shapes.
func (d *DialogAnswer) DecodeOption(v any) error {
	switch x := v.(type) {
	case string:
		switch x {
		case "accept":
			d.Dismiss = false
		case "dismiss":
			d.Dismiss = true
		default:
			return fmt.Errorf("must be accept or dismiss, not %q", x)
		}
		return nil
	case bool:
		d.Dismiss = !x
		return nil
	case *Object:
		return d.decodeMap(x)
	}
	return fmt.Errorf("must be accept, dismiss, or {accept, promptText}, not %s", shape(v))
}

func (d *DialogAnswer) decodeMap(m *Object) error {
	for _, k := range m.Keys {
		v := m.Values[k]
		switch k {
		case "accept":
			b, ok := v.(bool)
			if !ok {
				return fmt.Errorf("accept must be true or false, not %s", shape(v))
			}
			d.Dismiss = !b
		case "promptText":
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("promptText must be a string, not %s", shape(v))
			}
			d.PromptText = s
		case "action":
		default:
			return fmt.Errorf("has no key %q; valid: accept, action, promptText", k)
		}
	}
	if a, given := m.Get("action"); given {
		var inner DialogAnswer
		if err := inner.DecodeOption(a); err != nil {
			return fmt.Errorf("action %w", err)
		}
		d.Dismiss = inner.Dismiss
	}
	return nil
}
