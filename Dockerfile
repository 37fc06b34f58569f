# CityTable server: a multi-stage build. The web client is embedded in the binary.
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release -p server --bin citytable

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /data citytable \
    && mkdir -p /data && chown citytable /data
COPY --from=build /src/target/release/citytable /usr/local/bin/citytable
USER citytable
ENV PORT=8080 DATA_DIR=/data RUST_LOG=info
EXPOSE 8080
VOLUME /data
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/readyz || exit 1
# SIGTERM: stop accepting, let rooms flush acknowledged moves, exit.
STOPSIGNAL SIGTERM
CMD ["citytable"]
