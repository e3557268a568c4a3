# The cluster's proxy (compose.yaml): Debian's nginx-light with deploy/nginx.conf.
FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx-light \
    && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/default
COPY nginx.conf /etc/nginx/conf.d/mafia.conf
EXPOSE 80
CMD ["nginx", "-g", "daemon off;"]
