# The TLS front (compose.yaml, compose.single.yaml): Debian's Caddy with deploy/Caddyfile (docs/SCALING.md, "HTTPS").
FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends caddy ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /data /config \
    && chown caddy:caddy /data /config
COPY Caddyfile /etc/caddy/Caddyfile
# The certificates, the ACME account and the local CA live in /data (a volume: a restart must not ask Let's
# Encrypt again); Caddy's last configuration in /config.
ENV XDG_DATA_HOME=/data \
    XDG_CONFIG_HOME=/config
USER caddy
VOLUME /data
EXPOSE 80 443 443/udp
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
