package emulator

import (
	"errors"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
)

func asResponseError(err error, re **azcore.ResponseError) bool { return errors.As(err, re) }
