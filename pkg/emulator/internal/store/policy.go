package store

// Policy is a stored access policy of a table (REST "Set Table ACL"):
// what a service SAS naming it by its ID gets, and what deleting it
// revokes. Empty fields are left to the SAS; times are written as
// edm.TimeLayout writes them.
type Policy struct {
	ID, Start, Expiry, Perms string
}

// Policy returns the table's stored access policy id, or nil. It takes no
// lock.
func (t *Table) Policy(id string) *Policy {
	for _, p := range t.Policies() {
		if p.ID == id {
			return &p
		}
	}
	return nil
}

// Policies returns the table's stored access policies, read only. It
// takes no lock.
func (t *Table) Policies() []Policy {
	if p := t.acl.Load(); p != nil {
		return *p
	}
	return nil
}

// SetPolicies replaces the table's stored access policies. It takes no
// lock: the requests that read them see the old ones or the new.
func (t *Table) SetPolicies(p []Policy) { t.acl.Store(&p) }
