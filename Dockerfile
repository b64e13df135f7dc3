# benchie-cli container image: the wheel researchers pip-install (the scorer with every shipped
# gold version inside), its runtime dependencies and the compiled gold index, so that
# `docker run benchie score ...` gives the same numbers on every machine.
#
#   scripts/build-image                  # builds the wheel into dist/, then this image from it
#                                        # with the labels below; tags benchie:<code version>-
#                                        # gold<gold version>
#   scripts/build-image --target codabench   # Codabench's scoring program
#
# The image installs one wheel from dist/, named by the build arguments WHEEL (its file name)
# and WHEEL_SHA256 (its sha256, checked before it is installed, so that the label naming it
# cannot lie; pip checks it again and records it in the package's direct_url.json). A build
# without them stops and says so. By hand, what scripts/build-image does:
#
#   SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) python3 -m build --outdir dist/
#   docker build --build-arg WHEEL=benchie_cli-0.2.0-py3-none-any.whl \
#       --build-arg WHEEL_SHA256=$(sha256sum dist/benchie_cli-0.2.0-py3-none-any.whl | cut -d' ' -f1) \
#       -t benchie:0.2.0-gold1.1.0 .
#
# Classic Dockerfile syntax only (no BuildKit-only features), so that any builder works.

ARG PYTHON_IMAGE=python:3.11-slim
# The image's default gold version (BenchIE's), $BENCHIE_GOLD_VERSION inside.
ARG GOLD_VERSION=1.1.0

# ---------------------------------------------------------------------------- build stage
# The wheel is checked and installed into a virtual environment; the gold versions gold.dvc
# tracks that the wheel does not ship (an organiser's private test gold) are pulled with dvc
# into the image's own store; every version is verified and its index compiled. Nothing of
# dvc reaches the image.
FROM ${PYTHON_IMAGE} AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

ARG WHEEL
ARG WHEEL_SHA256
RUN if [ -z "${WHEEL}" ] || [ -z "${WHEEL_SHA256}" ]; then \
      echo "benchie image: no wheel given. Build with scripts/build-image, which builds the wheel into dist/ and passes --build-arg WHEEL=<its file name> --build-arg WHEEL_SHA256=<its sha256> (docs/container.md)" >&2; \
      exit 1; \
    fi
COPY dist/${WHEEL} /tmp/wheel/
RUN cd /tmp/wheel \
 && { echo "${WHEEL_SHA256}  ${WHEEL}" | sha256sum --check --strict --quiet - \
      || { echo "benchie image: dist/${WHEEL} does not have the sha256 WHEEL_SHA256 names (${WHEEL_SHA256}): the label would lie; build with scripts/build-image" >&2; exit 1; }; } \
 && python -m venv /opt/benchie \
 && /opt/benchie/bin/pip install --quiet "benchie-cli @ file:///tmp/wheel/${WHEEL}#sha256=${WHEEL_SHA256}"

# Private test gold (docs/container.md, "Private test gold"): every output of gold.dvc below
# gold/ that the wheel does not ship (benchie_cli.gold.shipped) is pulled from the remote
# gold.dvc names for it and kept in /opt/benchie/data/gold, the image's user data store
# ($BENCHIE_DATA_DIR below), which the order of stores reads before the installed package's.
# With none (the common case) dvc is not even installed and that store stays empty. The
# remote's credentials are build arguments: they exist only in this stage, which the final
# image does not contain. The S3 ones are declared; add an ARG line for another provider's,
# and name dvc with the remote's extra in DVC_REQUIREMENT (for S3, "dvc[s3]>=3.0").
ARG AWS_ACCESS_KEY_ID
ARG AWS_SECRET_ACCESS_KEY
ARG AWS_SESSION_TOKEN
ARG DVC_REQUIREMENT="dvc>=3.0"
COPY .dvc/config /src/.dvc/config
COPY gold.dvc /src/
COPY dvc-store/ /src/dvc-store/
RUN cd /src \
 && private=$(/opt/benchie/bin/python -c 'import os.path, pathlib; \
        from benchie_cli.gold.dvcfile import load; \
        from benchie_cli.gold.shipped import shipped_versions; \
        shipped = {"gold/" + v.relative for v in shipped_versions()}; \
        paths = [os.path.normpath(o.path) for o in load(pathlib.Path("gold.dvc")).outs]; \
        print(" ".join(p for p in paths if p.startswith("gold/") and p not in shipped))') \
 && mkdir -p /opt/benchie/data/gold \
 && if [ -n "$private" ]; then \
      echo "benchie image: gold not in the wheel, from gold.dvc: $private" \
      && python -m venv /opt/dvc \
      && /opt/dvc/bin/pip install --quiet "${DVC_REQUIREMENT}" \
      && /opt/dvc/bin/dvc config --local core.no_scm true \
      && /opt/dvc/bin/dvc pull --quiet $private \
      && for path in $private; do \
           mkdir -p "/opt/benchie/data/${path%/*}" && mv "$path" "/opt/benchie/data/$path" || exit 1; \
         done; \
    fi \
 && rm -rf /src

# Every version in the image matches its manifest, the default one is the version the labels
# name, and the index of every BenchIE version is compiled into /opt/benchie/cache.
ARG GOLD_VERSION
ARG GOLD_SHA256
RUN export BENCHIE_DATA_DIR=/opt/benchie/data BENCHIE_CACHE_DIR=/opt/benchie/cache \
 && mkdir -m 0755 /opt/benchie/cache \
 && /opt/benchie/bin/benchie gold verify \
 && store=$(BENCHIE_GOLD_VERSION="${GOLD_VERSION}" /opt/benchie/bin/benchie gold path) \
 && if [ -n "${GOLD_SHA256}" ]; then \
      echo "${GOLD_SHA256}  $store/${GOLD_VERSION}/manifest.json" | sha256sum --check --strict --quiet - \
      || { echo "benchie image: gold ${GOLD_VERSION}'s manifest does not have the sha256 GOLD_SHA256 names (${GOLD_SHA256})" >&2; exit 1; }; \
    fi \
 && /opt/benchie/bin/benchie gold compile \
 && /opt/benchie/bin/pip uninstall --quiet --yes pip setuptools

# ---------------------------------------------------------------------------- runtime
# What both images hold: the installed wheel with its gold, the private gold, the compiled
# index, and the labels.
FROM ${PYTHON_IMAGE} AS runtime

ARG BENCHIE_VERSION=0.2.0
ARG REVISION=unknown
ARG GOLD_VERSION
ARG GOLD_SHA256=unknown
ARG WHEEL
ARG WHEEL_SHA256

LABEL org.opencontainers.image.title="benchie" \
      org.opencontainers.image.description="BenchIE fact-level evaluation of Open Information Extraction, with its gold" \
      org.opencontainers.image.version="${BENCHIE_VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="MIT AND CC-BY-4.0" \
      io.benchie.gold.version="${GOLD_VERSION}" \
      io.benchie.gold.manifest-sha256="${GOLD_SHA256}" \
      io.benchie.wheel.file="${WHEEL}" \
      io.benchie.wheel.sha256="${WHEEL_SHA256}"

COPY --from=build /opt/benchie /opt/benchie

# The shipped gold is the installed wheel's (benchie_cli/data/gold in site-packages), the
# private gold is in the user data store /opt/benchie/data/gold, the compiled index is read
# from /opt/benchie/cache; GOLD_VERSION is the default gold.
ENV PATH=/opt/benchie/bin:$PATH \
    BENCHIE_DATA_DIR=/opt/benchie/data \
    BENCHIE_CACHE_DIR=/opt/benchie/cache \
    BENCHIE_GOLD_VERSION=${GOLD_VERSION} \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

RUN groupadd --system --gid 10001 benchie \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin benchie

# ---------------------------------------------------------------------------- codabench
# `scripts/build-image --target codabench`: the scoring program of a Codabench competition
# (README, "For organisers"). Codabench's compute worker runs the image's own USER in an
# output directory owned by root (mode 0755), with every capability dropped and
# no-new-privileges: uid 0 can write there as the directory's owner and holds no privilege.
# The worker keeps the ENTRYPOINT in front of the bundle's command, which is the whole
# `benchie platform score ...` line: so no ENTRYPOINT.
FROM runtime AS codabench
LABEL io.benchie.variant="codabench"
USER 0:0
WORKDIR /app/program
ENTRYPOINT []
CMD ["benchie", "platform", "score", "/app/input", "/app/output"]

# ---------------------------------------------------------------------------- final stage
# The default image (no --target), for `docker run`: non-root, `benchie` as the entry point.
FROM runtime

USER 10001:10001
WORKDIR /data
ENTRYPOINT ["benchie"]
CMD ["--help"]
