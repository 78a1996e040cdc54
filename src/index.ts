import { createApp } from "./http/app";
import { runPipeline } from "./pipeline/run";

export { Account } from "./state/account";
export { ApiKey } from "./state/api-key";

export default createApp(runPipeline);
