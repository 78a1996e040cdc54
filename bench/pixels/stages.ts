/** The four pixel stages in one entry, for bench tooling that bundles them for node. */
export { composeOverlays } from "../../src/pipeline/compose";
export { decodeImage } from "../../src/pipeline/decode";
export { encodePng } from "../../src/pipeline/encode";
export { eraseRegions } from "../../src/pipeline/erase";
export { probeImage } from "../../src/pipeline/probe";
export { admitImage } from "../../src/request/validate";
