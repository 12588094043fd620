package browser

import "github.com/cdp-skill/cdp-skill/browser/confine"

// OutputDirEnv names the environment variable that sets the directory
// screenshots and PDFs an agent names are written under
// (confine.OutputDirEnv).
const OutputDirEnv = confine.OutputDirEnv

// OutputFile says where a capture step writes its file (confine.OutputFile).
type OutputFile = confine.OutputFile

// OutputTarget is a capture file about to be written (confine.OutputTarget).
type OutputTarget = confine.OutputTarget
