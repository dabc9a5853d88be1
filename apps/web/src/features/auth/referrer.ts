/** Spec 000 §2.3: the referrer comes from `referrer`, `ref` or `utm_source`, in that order. */
export function readReferrer(params: URLSearchParams): string | null {
  return params.get('referrer') || params.get('ref') || params.get('utm_source') || null;
}
