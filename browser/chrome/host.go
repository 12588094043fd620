package chrome

// Host is what the process environment says about Chrome on this machine.
// Package chrome reads no environment variable: the command reads them
// (runtime.ReadEnvironment) and passes a Host down in LaunchOptions.
type Host struct {
	// Path is $CHROME_PATH: the executable to use when it names a file.
	Path string
	// Display says a graphical display is available ($DISPLAY or
	// $WAYLAND_DISPLAY on Linux and FreeBSD, always elsewhere). Without
	// one Chrome is always launched headless.
	Display bool
	// ProgramDirs are where Windows installs programs (%LOCALAPPDATA%,
	// %PROGRAMFILES%, %PROGRAMFILES(X86)%); Find looks for chrome.exe
	// under them.
	ProgramDirs []string
}
