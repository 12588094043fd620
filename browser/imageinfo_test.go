package browser

import (
	"bufio"
	"os"
)

// readImageInfo reads the format and pixel size from an image file's
// header (png, jpeg, webp).
func readImageInfo(path string) (imageInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return imageInfo{}, err
	}
	defer f.Close()
	return decodeImageInfo(bufio.NewReader(f))
}
