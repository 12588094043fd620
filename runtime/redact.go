package runtime

import (
	"bytes"
	"regexp"
	"sync"
)

// secretParam matches the value of a URL query or fragment parameter named
// like a password or token (a sign-in form sent with GET puts the password
// in the page's own URL, which answers print in context.url and newUrl).
var secretParam = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)([?&#;](?:password|passwd|pwd|pass|passcode|pin|token|access_token|id_token|refresh_token|auth_token|session_token|session|sessionid|session_id|sessid|sid|jsessionid|phpsessid|auth|authorization|credential|credentials|secret|client_secret|secret_key|access_key|api_key|apikey|api-key|key|private_key|sig|signature)=)[^&#;?"\\\s<>]+`)
})

// maskedValue replaces a secret parameter's value.
const maskedValue = "***"

// maskSecretParams masks the values of password- and token-named URL
// parameters anywhere in an answer: context, step outputs, snapshots.
func maskSecretParams(b []byte) []byte {
	if !bytes.ContainsRune(b, '=') {
		return b
	}
	return secretParam().ReplaceAll(b, []byte("${1}"+maskedValue))
}
