package entra

import (
	"fmt"
	"strings"
)

// Role is one of Azure's built-in data roles for tables (Azure RBAC
// "Azure built-in roles for Storage"). A role assignment gives it to a
// principal at the account's scope.
type Role int

// The table data roles and their actions:
//   - Storage Table Data Reader (76199698-9eea-4c19-bc75-cec21354c6b6):
//     tableServices/tables/read and tables/entities/read;
//   - Storage Table Data Contributor (0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3):
//     tables/read, write and delete, and tables/entities/read, write,
//     delete, add/action and update/action.
const (
	Reader Role = iota + 1
	Contributor
)

var roleNames = map[Role]string{Reader: "Storage Table Data Reader", Contributor: "Storage Table Data Contributor"}

// String is the role's name in Azure.
func (r Role) String() string {
	if n, ok := roleNames[r]; ok {
		return n
	}
	return fmt.Sprintf("Role(%d)", int(r))
}

// ParseRole reads a role: its name in Azure, or reader or contributor.
func ParseRole(s string) (Role, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for r, n := range roleNames {
		if t == strings.ToLower(n) {
			return r, nil
		}
	}
	switch t {
	case "reader":
		return Reader, nil
	case "contributor":
		return Contributor, nil
	}
	return 0, fmt.Errorf("%q is not a table data role: write reader (Storage Table Data Reader) or contributor (Storage Table Data Contributor)", s)
}

// Permissions are what a principal's roles allow, as the Table service's
// operations need them: Read covers querying tables and entities (the
// read actions), Write creating tables and inserting, updating and merging
// entities (tables/write, entities/write, add/action and update/action),
// Delete deleting tables and entities.
type Permissions struct {
	Read, Write, Delete bool
}

// of returns what role r allows.
func (r Role) permissions() Permissions {
	switch r {
	case Reader:
		return Permissions{Read: true}
	case Contributor:
		return Permissions{Read: true, Write: true, Delete: true}
	}
	return Permissions{}
}

// Assignment gives a role to a principal at the account's scope, as a role
// assignment does. Principal is the principal's object ID (the token's
// oid claim), or an application's client ID (its azp or appid claim), as
// az role assignment create --assignee accepts either.
type Assignment struct {
	Principal string
	Role      Role
}

// ParseAssignment reads ROLE=PRINCIPAL, like contributor=1111...-....
func ParseAssignment(s string) (Assignment, error) {
	role, principal, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(principal) == "" {
		return Assignment{}, fmt.Errorf("%q: write ROLE=PRINCIPAL, like contributor=<object or client ID>", s)
	}
	r, err := ParseRole(role)
	if err != nil {
		return Assignment{}, err
	}
	return Assignment{Principal: strings.TrimSpace(principal), Role: r}, nil
}
