import { PRODUCT } from '../../shared/config';

export function Logo({ className }: { className?: string }) {
  return <img src="/icon.svg" alt={`${PRODUCT} logo`} className={className} width={48} height={48} />;
}
