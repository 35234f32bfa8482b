#!/bin/sh
# Moves the baseline of a published contract, the API (bundles/api), the test kit
# (devkit/testkit) or its builders (bundles/testing), to its sources as they are now: after a release, or once an incompatible
# change has been made on purpose with its major version bump. Copies the module's src/main/java
# over its baseline module's (devkit/api-baseline, devkit/testkit-baseline, devkit/testing-baseline) and gives the baseline
# the new version in both poms. Builds nothing, commits nothing.
#   sh bundles/api/update-baseline.sh api 0.2.0-baseline.1
#   sh bundles/api/update-baseline.sh testkit 0.2.0-baseline.1
set -eu
usage="usage: update-baseline.sh api|testkit|testing NEW-VERSION (e.g. 0.1.0-baseline.2)"
which=${1:?$usage}
new=${2:?$usage}
root=$(cd "$(dirname "$0")/../.." && pwd)
case "$which" in
  api) module=bundles/api ;;
  testkit) module=devkit/testkit ;;
  testing) module=bundles/testing ;;
  *) echo "no baseline for '$which': $usage" >&2; exit 2 ;;
esac
baseline=devkit/$which-baseline
property=hotsched.$which.baseline
old=$(sed -n "s:.*<$property>\(.*\)</$property>.*:\1:p" "$root/$module/pom.xml")
[ -n "$old" ] || { echo "no <$property> in $module/pom.xml" >&2; exit 2; }
# the version names the baseline: a new one says in the history where it moved
[ "$new" != "$old" ] || { echo "the baseline is $old already; choose a new version" >&2; exit 2; }
rm -rf "$root/$baseline/src/main/java"
cp -R "$root/$module/src/main/java" "$root/$baseline/src/main/java"
sed -i "s:<$property>$old</$property>:<$property>$new</$property>:" "$root/$module/pom.xml"
sed -i "s:<version>$old</version>:<version>$new</version>:" "$root/$baseline/pom.xml"
grep -q "<version>$new</version>" "$root/$baseline/pom.xml" || { echo "$baseline/pom.xml does not name $old" >&2; exit 2; }
echo "$which baseline $old -> $new (at $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "an unknown commit")); check with"
echo "  mvn -B -pl $module -am verify"
echo "and commit $module/pom.xml and $baseline/"
