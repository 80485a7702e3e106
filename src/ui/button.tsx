import clsx from 'clsx';
import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-blue-700 text-white hover:bg-blue-800 focus-visible:outline-blue-700',
  secondary: 'bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-blue-700',
  ghost: 'text-slate-700 hover:bg-slate-100 focus-visible:outline-blue-700',
  danger: 'bg-red-700 text-white hover:bg-red-800 focus-visible:outline-red-700',
};

/** The class list of a button, for links styled as buttons. */
export function buttonClass(variant: ButtonVariant = 'primary', className?: string) {
  return clsx(
    'inline-flex min-h-10 items-center justify-center gap-2 rounded-lg px-4 py-2 touch:min-h-11 text-sm font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50',
    VARIANTS[variant],
    className,
  );
}

export function Button({ variant = 'primary', className, type = 'button', ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonClass(variant, className)} {...rest} />;
}
