package analyses

import "time"

// SetTimeout sets c's bound on one analysis, for the tests of what a
// game too long to analyse gets.
func SetTimeout(c *Cache, d time.Duration) { c.timeout = d }
