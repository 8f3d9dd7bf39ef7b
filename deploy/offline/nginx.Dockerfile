# Stand-in for nginx:1.27 built from Debian bookworm's nginx-light (1.22) and curl for the health
# check. Sites go in /etc/nginx/conf.d/ (Debian's default site is removed); logs go to the
# container's output and nginx runs in the foreground.
ARG BASE=civitas-offline/debian:bookworm
FROM ${BASE}
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y nginx-light curl \
    && apt-get clean && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/default \
    && ln -sf /dev/stdout /var/log/nginx/access.log \
    && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
