package labfs

// oNonblock is nothing on Windows: its named pipes are not in the
// folders a lab is given, and opening a file never waits.
const oNonblock = 0
