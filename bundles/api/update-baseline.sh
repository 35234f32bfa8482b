#!/bin/sh
# Moves the API baseline to the API as it is now (after a release, or once an incompatible change
# has been made on purpose with its major version bump): builds bundles/api, commits nothing.
#   sh bundles/api/update-baseline.sh 0.2.0-baseline.1
# The new version must differ from the old one: Maven keeps a copy of each baseline it resolved
# and would go on using the old file under an old version.
set -eu
new=${1:?usage: update-baseline.sh NEW-VERSION (e.g. 0.1.0-baseline.2)}
api=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$api/../.." && pwd)
old=$(sed -n 's:.*<hotsched.api.baseline>\(.*\)</hotsched.api.baseline>.*:\1:p' "$api/pom.xml")
[ "$new" != "$old" ] || { echo "the baseline is $old already; choose a new version" >&2; exit 2; }
(cd "$root" && mvn -B -q -pl bundles/api package -DskipTests -Dbnd.baseline.skip=true)
dir="$api/baseline/io/hotsched/io.hotsched.api/$new"
mkdir -p "$dir"
cp "$(ls "$api"/target/io.hotsched.api-*.jar | grep -v -e -sources -e -javadoc)" "$dir/io.hotsched.api-$new.jar"
cat > "$dir/io.hotsched.api-$new.pom" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<!-- The API bundle as it was when this baseline was taken ($(git -C "$root" rev-parse --short HEAD)), for bnd's baseline check only. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.hotsched</groupId>
  <artifactId>io.hotsched.api</artifactId>
  <version>$new</version>
</project>
POM
sed -i "s:<hotsched.api.baseline>$old</hotsched.api.baseline>:<hotsched.api.baseline>$new</hotsched.api.baseline>:" "$api/pom.xml"
rm -rf "$api/baseline/io/hotsched/io.hotsched.api/$old"
echo "baseline $old -> $new; commit bundles/api/pom.xml and bundles/api/baseline/"
