export { encodePng } from "./pixels/png-encode";
