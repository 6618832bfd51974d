# tablestress container image: a static binary on a distroless base.
#   docker build -t tablestress .
#   docker run --rm -v "$PWD/scenarios:/scenarios:ro" tablestress run /scenarios/quickstart.yaml
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY cmd ./cmd
COPY pkg ./pkg
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/tablestress ./cmd/tablestress

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tablestress /usr/local/bin/tablestress
COPY scenarios /scenarios
USER nonroot
ENTRYPOINT ["/usr/local/bin/tablestress"]
CMD ["--help"]
