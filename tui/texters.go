package tui

// The screens that take free text implement texter: while a password, a
// message or a report is being typed, "?" is typed too.

func (a *accountScreen) takesText() bool { return true }

func (ks *keysScreen) takesText() bool { return ks.input != "" || ks.asking }

func (ya *yourAccount) takesText() bool { return ya.form != "" }

func (e *eventScreen) takesText() bool { return e.chat.open }

func (pr *promptScreen) takesText() bool { return pr.secret || pr.input != "" }

func (ps *playersScreen) takesText() bool { return ps.report.name != "" }

func (ps *profileScreen) takesText() bool { return ps.report.name != "" }

func (ms *modScreen) takesText() bool { return ms.form != "" }
