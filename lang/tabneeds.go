package lang

// CheckTabNeeds fails a command whose steps need a tab it never gets: no
// top-level tab, and a step that needs one comes before any openTab or
// connectTab.
func CheckTabNeeds(req *Request) error {
	if req.Tab != "" {
		return nil
	}
	for _, st := range req.Steps {
		switch {
		case st.Action.OpensTab:
			return nil
		case st.Action.NoTab:
			continue
		case st.Action.Name == "wait" && !isSelectorWait(st.Value), st.Action.Name == "sleep":
			continue
		}
		return validationErr(st.Index, "%s needs a tab, and the command has none: add \"tab\": \"t1\" at the top level to use an open tab, or start with {\"openTab\": \"<url>\"}", st.Key)
	}
	return nil
}

func isSelectorWait(v any) bool {
	switch x := v.(type) {
	case string:
		return true
	case *Object:
		for _, k := range x.Keys {
			if k != "ms" && k != "timeout" && k != "optional" {
				return true
			}
		}
		return false
	}
	return false
}
