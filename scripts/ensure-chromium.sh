#!/usr/bin/env bash
# Make sure Debian's Chromium (and a font) is present for the browser tests.
# As root on Debian/Ubuntu it installs them with apt; otherwise it says what to do.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Chromium and fonts from Debian's packages (needed by the browser tests)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
  exit 0
fi
echo "Chromium not found. Install Debian's chromium (sudo apt-get install chromium fonts-dejavu-core)" >&2
echo "or set EMBEDLAB_CHROMIUM to a Chromium binary; the browser tests fail under CI=true without it." >&2
