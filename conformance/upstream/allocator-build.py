"""Writes k8s/dynamicresources-allocator.json from the cases allocator-extract.py read.

  allocator-build.py COMMIT OUT.json CASES.json

A case of a left-out feature, of a gate off by default, or named in allocator-not-expressed.json
goes to upstream.notExpressed with why; the others become `allocate` cases.
"""
import json, os, re, sys
d = json.load(open(sys.argv[3]))
COMMIT = sys.argv[1]
LEFT_OUT = {
    "ConsumableCapacity": "divergence: consumable capacity (DRAConsumableCapacity) is left out (docs/plugin-dynamicresources.md): a device with allowMultipleAllocations is exclusive, capacity requests are not read",
    "DeviceBindingAndStatus": "divergence: binding conditions (DRADeviceBindingConditions) are left out (docs/plugin-dynamicresources.md): the results carry no bindingConditions",
    "ListTypeAttributes": "not applicable: DRAListTypeAttributes is alpha in v1.36, off by default",
}
extra = {}
try:
    extra = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'allocator-not-expressed.json')))
except FileNotFoundError:
    pass
cases, not_expressed = [], {}
for c in d['cases']:
    name = c['upstreamCase']
    why = next((LEFT_OUT[f] for f in ("ConsumableCapacity", "DeviceBindingAndStatus", "ListTypeAttributes") if f in c['features']), None)
    if why is None and 'feature is disabled' in c['expected'].get('errorContains', ''):
        why = "not applicable: the case turns off a feature gate that is on by default in v1.36 (hotsched runs the release's defaults)"
    if why is None and name in extra:
        why = extra[name]
    if why:
        not_expressed[name] = why
        continue
    cases.append({
        "name": "dra-allocator-" + re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-'),
        "upstreamTest": "TestAllocator",
        "upstreamCase": name,
        "kind": "allocate",
        "input": c['input'],
        "expected": c['expected'],
    })
doc = {
    "plugin": "DynamicResources",
    "extensionPoints": ["PreFilter", "Filter"],
    "upstream": {
        "repo": "kubernetes/kubernetes (published as kubernetes/dynamic-resource-allocation)",
        "release": "v1.36.3",
        "testFile": "staging/src/k8s.io/dynamic-resource-allocation/structured/internal/allocatortesting/allocator_testing.go",
        "testFunction": "TestAllocator",
        "testCommit": "kubernetes/dynamic-resource-allocation tag v0.36.2 (" + COMMIT + "), the newest 1.36 tag the snapshot holds; its structured/ is the same on the release-1.36 branch head",
        "runBy": "structured/internal/{stable,incubating,experimental}/allocator_test.go call the shared table (TestAllocator), each with the features its implementation supports",
        "helpers": "the table's helpers, same file: class(name, driver) selects device.driver; request(name, class, n) is ExactCount n; sliceWith*(name, node, pool, driver) is pool generation 1, one slice; node(name, region) has labels region and planet=earth; the node is node-1 in region-1 when a case names none; allocatedDevices are driver/pool/device",
        "note": "Each case is one TestAllocator entry: the inputs and the expected results as the helpers build them (evaluated from the table's expressions, not copied code). expectNumAllocateOneInvocations (the search's step count of the incubating and experimental implementations) is not compared. An expected error is compared as upstream does, by substring.",
        "notExpressed": not_expressed,
    },
    "cases": cases,
}
json.dump(doc, open(sys.argv[2], 'w'), indent=1)
print(len(cases), "cases,", len(not_expressed), "not expressed")
