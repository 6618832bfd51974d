# tablestress container image: a static binary on a distroless base.
#   docker build -t tablestress .
#   docker run --rm -v "$PWD/scenarios:/scenarios:ro" tablestress run /scenarios/quickstart.yaml
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY cmd ./cmd
COPY internal ./internal
COPY pkg ./pkg
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/tablestress ./cmd/tablestress
# /data, owned by the image's nonroot user (65532), for tablestress emulator
# --location /data: a named volume mounted there starts with its owner.
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tablestress /usr/local/bin/tablestress
COPY --from=build --chown=65532:65532 /out/data /data
COPY scenarios /scenarios
USER nonroot
ENTRYPOINT ["/usr/local/bin/tablestress"]
CMD ["--help"]
