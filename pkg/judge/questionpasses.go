package judge

// Each question's largest pass is kept apart from the partition's
// largest of any query (partLoad.passBy): a question whose pass is
// smaller than another's on the same partition still overruns what one
// query may read when it is over PassLimit, and advise asks of each
// question whether its own queries make every design hot.

// burstiestOf is the partition one query of what (a question's or an
// operation's name) visits the most rows of at once, and those rows, or
// none (ok false): what burstiest is of every query, of one.
func (l *loads) burstiestOf(what string) (pkey, float64, bool) {
	return l.mostOf(what, func(p partLoad) map[string]float64 { return p.passBy })
}
