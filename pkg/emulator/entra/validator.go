// Package entra checks the Microsoft Entra ID bearer tokens of Table
// requests as Azure Storage does (REST "Authorize with Microsoft Entra
// ID"): the token's issuer is the trusted authority's, its signature is
// checked against the keys the authority publishes (its OpenID Connect
// discovery document's jwks_uri), its audience is Azure Storage
// (https://storage.azure.com, Storage's application ID, or the account's
// endpoint), and it is within its lifetime (exp, nbf, with Azure's five
// minutes of clock skew). A token that passes names a principal (its oid
// and its application); Azure's role assignments, given as configuration
// (Config.Assignments), decide what the principal may do (Permissions).
//
// A token that fails is Azure's 401 InvalidAuthenticationInfo, "Server
// failed to authenticate the request. Please refer to the information in
// the www-authenticate header.", with the challenge Azure sends
// (WWW-Authenticate: Bearer authorization_uri=AUTHORITY/TENANT/oauth2/authorize
// resource_id=https://storage.azure.com) and an AuthenticationErrorDetail
// saying which check failed, in the words of Azure's own (Issuer
// validation failed. Issuer did not match.; Audience validation failed.
// Audience did not match.; Lifetime validation failed. The token is
// expired.). The package knows nothing of the Table service's requests:
// the service asks Authenticate about a request's Authorization header and
// maps Permissions onto its operations. It imports nothing of the module:
// never the REST service (package emulator, which imports it), the store,
// the model or fault injection (layers_test.go in package emulator holds
// this).
package entra

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// ResourceID is Azure Storage's resource: the audience of its tokens and
// the resource_id of its challenge.
const ResourceID = "https://storage.azure.com"

// StorageAppID is Azure Storage's application ID, also an accepted audience.
const StorageAppID = "e406a681-f3d4-42a8-90b6-c2b029497af1"

// DefaultLeeway is the clock skew allowed on exp and nbf: five minutes, the
// default of the Microsoft identity libraries Azure validates with.
const DefaultLeeway = 5 * time.Minute

// Config configures a Validator.
type Config struct {
	// Discovery is the OpenID Connect discovery document of the authority
	// whose tokens are accepted, like
	// https://login.microsoftonline.com/TENANT/v2.0/.well-known/openid-configuration.
	Discovery string
	// Client fetches the authority's documents (default
	// http.DefaultClient); give it the authority's certificate to trust.
	Client *http.Client
	// Account is the storage account: tokens for its own endpoint
	// (https://ACCOUNT.table.core.windows.net) are accepted too.
	Account string
	// Audiences are further accepted audiences, such as the service's own
	// endpoint URL.
	Audiences []string
	// Assignments are the role assignments at the account's scope.
	Assignments []Assignment
	// Now is the service's clock (default time.Now).
	Now func() time.Time
	// Leeway is the clock skew allowed (default DefaultLeeway).
	Leeway time.Duration
}

// Validator checks bearer tokens. Safe for concurrent use.
type Validator struct {
	cfg       Config
	iss       *issuer
	audiences map[string]bool
}

// New returns a validator; it fetches nothing until the first token (or
// Load).
func New(cfg Config) *Validator {
	if cfg.Client == nil {
		cfg.Client = http.DefaultClient
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Leeway <= 0 {
		cfg.Leeway = DefaultLeeway
	}
	aud := map[string]bool{ResourceID: true, ResourceID + "/": true, StorageAppID: true}
	if cfg.Account != "" {
		for _, suffix := range []string{".table.core.windows.net", ".table.core.chinacloudapi.cn", ".table.core.usgovcloudapi.net"} {
			aud["https://"+cfg.Account+suffix] = true
			aud["https://"+cfg.Account+suffix+"/"] = true
		}
	}
	for _, a := range cfg.Audiences {
		aud[strings.TrimSuffix(a, "/")] = true
		aud[strings.TrimSuffix(a, "/")+"/"] = true
	}
	return &Validator{cfg: cfg, iss: &issuer{discovery: cfg.Discovery, client: cfg.Client}, audiences: aud}
}

// Load fetches the authority's discovery document and keys now, so that a
// service can refuse to start with an authority it cannot reach.
func (v *Validator) Load(ctx context.Context) error { return v.iss.load(ctx) }

// Principal is who a valid token names and what its roles allow.
type Principal struct {
	ObjectID, AppID, Tenant string
	Roles                   []Role
	Permissions
}

// Refusal is a request's token refused: Azure's answer.
type Refusal struct {
	Status  int    // 401
	Code    string // InvalidAuthenticationInfo
	Message string
	// Detail is the AuthenticationErrorDetail: which check failed.
	Detail string
	// Challenge is the WWW-Authenticate header's value.
	Challenge string
}

// MsgChallenge is the message of Azure's 401 answers.
const MsgChallenge = "Server failed to authenticate the request. Please refer to the information in the www-authenticate header."

// Details of refusals, in the words of Azure's AuthenticationErrorDetail.
const (
	DetailIssuer    = "Issuer validation failed. Issuer did not match."
	DetailAudience  = "Audience validation failed. Audience did not match."
	DetailExpired   = "Lifetime validation failed. The token is expired."
	DetailNotYet    = "Lifetime validation failed. The token is not yet valid."
	DetailNoExpiry  = "Lifetime validation failed. The token is missing an Expiration Time."
	DetailSignature = "Signature validation failed. Signature verification failed."
	DetailNoKey     = "Signature validation failed. Unable to match key."
	DetailMalformed = "The bearer token is not a well-formed JWT."
	DetailNoKeys    = "Signature validation failed. The issuer's keys could not be retrieved."
)

// Authenticate checks the value of a request's Authorization header
// ("Bearer TOKEN"): the principal and what it may do, or the refusal.
func (v *Validator) Authenticate(ctx context.Context, authorization string) (Principal, *Refusal) {
	scheme, token, _ := strings.Cut(authorization, " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		return Principal{}, v.refuse(ctx, DetailMalformed)
	}
	claims := jwt.MapClaims{}
	parsed, _, err := jwt.NewParser().ParseUnverified(token, claims)
	if err != nil {
		return Principal{}, v.refuse(ctx, DetailMalformed)
	}
	kid, _ := parsed.Header["kid"].(string)
	iss, _, key, err := v.iss.state(ctx, kid)
	switch {
	case err != nil:
		return Principal{}, v.refuse(ctx, DetailNoKeys)
	case claimString(claims, "iss") != iss:
		return Principal{}, v.refuse(ctx, DetailIssuer)
	case key == nil:
		return Principal{}, v.refuse(ctx, DetailNoKey)
	}
	_, err = jwt.NewParser(jwt.WithValidMethods([]string{"RS256"}), jwt.WithoutClaimsValidation()).
		ParseWithClaims(token, jwt.MapClaims{}, func(*jwt.Token) (any, error) { return key, nil })
	if err != nil {
		return Principal{}, v.refuse(ctx, DetailSignature)
	}
	if d := v.checkClaims(claims); d != "" {
		return Principal{}, v.refuse(ctx, d)
	}
	p := Principal{ObjectID: claimString(claims, "oid"), AppID: claimString(claims, "azp"), Tenant: claimString(claims, "tid")}
	if p.AppID == "" {
		p.AppID = claimString(claims, "appid") // a v1.0 token
	}
	for _, a := range v.cfg.Assignments {
		if a.Principal != "" && (strings.EqualFold(a.Principal, p.ObjectID) || strings.EqualFold(a.Principal, p.AppID)) {
			p.Roles = append(p.Roles, a.Role)
			rp := a.Role.permissions()
			p.Read, p.Write, p.Delete = p.Read || rp.Read, p.Write || rp.Write, p.Delete || rp.Delete
		}
	}
	return p, nil
}

// checkClaims checks the audience and the lifetime of a token whose
// signature was verified: "" when they pass, else the refusal's detail.
func (v *Validator) checkClaims(claims jwt.MapClaims) string {
	aud, err := claims.GetAudience()
	if err != nil || !v.anyAudience(aud) {
		return DetailAudience
	}
	now := v.cfg.Now()
	exp, err := claims.GetExpirationTime()
	if err != nil || exp == nil {
		return DetailNoExpiry
	}
	if !now.Before(exp.Add(v.cfg.Leeway)) {
		return DetailExpired
	}
	if nbf, err := claims.GetNotBefore(); err != nil || (nbf != nil && now.Add(v.cfg.Leeway).Before(nbf.Time)) {
		return DetailNotYet
	}
	return ""
}

func (v *Validator) anyAudience(aud jwt.ClaimStrings) bool {
	for _, a := range aud {
		if v.audiences[a] {
			return true
		}
	}
	return false
}

// refuse is the 401 of a token failing a check.
func (v *Validator) refuse(ctx context.Context, detail string) *Refusal {
	_, authorize, _, err := v.iss.state(ctx, "")
	if err != nil || authorize == "" {
		authorize = v.cfg.Discovery
	}
	return &Refusal{Status: http.StatusUnauthorized, Code: "InvalidAuthenticationInfo", Message: MsgChallenge, Detail: detail,
		Challenge: "Bearer authorization_uri=" + authorize + " resource_id=" + ResourceID}
}

func claimString(c jwt.MapClaims, name string) string {
	s, _ := c[name].(string)
	return s
}

// IsBearer reports whether an Authorization header carries a bearer token.
func IsBearer(authorization string) bool {
	scheme, _, _ := strings.Cut(authorization, " ")
	return strings.EqualFold(scheme, "Bearer")
}

// Challenge is the WWW-Authenticate value of the validator's refusals.
func (v *Validator) Challenge(ctx context.Context) string { return v.refuse(ctx, "").Challenge }
