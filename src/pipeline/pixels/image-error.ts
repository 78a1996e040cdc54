/**
 * The client's file, not our code, is at fault: broken, cut short, contradicting itself, of a kind
 * no decoder here takes, or asking for more work than its pixels justify. Found by the probe, it is
 * refused before the call is accepted; found while decoding, the call fails and is refunded. Either
 * way the answer is 422 on `imageBase64`. Every other error a decoder throws is a defect of ours.
 */
export class ImageDataError extends Error {
	override name = "ImageDataError";
}
