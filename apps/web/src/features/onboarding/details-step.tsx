import { ONBOARDING_COMPANY_SIZES, ONBOARDING_ROLES, ONBOARDING_SOURCES, ONBOARDING_USE_CASES, type Profile } from '@spyglass/protocol';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { ROLE_LABELS, SOURCE_LABELS, USE_CASE_LABELS, validateDetails, type DetailsErrors, type DetailsForm } from './details-validation';
import { saveDetails, saveOnboardingResponses } from './onboarding.api';
import { StepFrame } from './step-frame';

const initialForm = (profile: Profile): DetailsForm => ({
  firstName: profile.firstName ?? '',
  lastName: profile.lastName ?? '',
  company: profile.company ?? '',
  companySize: profile.companySize ?? '',
  role: profile.role ?? '',
  signupSource: profile.signupSource ?? '',
  signupUsecases: profile.signupUsecases,
});

/** Spec 000 §2.4 and §4.3: validated before moving on; a failed save is only logged. */
export function DetailsStep({ profile, onNext, onBack }: { profile: Profile; onNext: (profile: Profile | null) => void; onBack: () => void }) {
  const formId = useId();
  const [form, setForm] = useState(() => initialForm(profile));
  const [errors, setErrors] = useState<DetailsErrors>({});
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof DetailsForm>(key: K, value: DetailsForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = validateDetails(form);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setSaving(true);
    const [details] = await Promise.allSettled([saveDetails(result.details), saveOnboardingResponses(result.responses)])
      .then((answers) => {
        answers.forEach((answer) => answer.status === 'rejected' && console.error('Failed to save the onboarding details', answer.reason));
        return answers;
      });
    setSaving(false);
    onNext(details.status === 'fulfilled' ? details.value : null);
  }

  const toggleUseCase = (useCase: string) =>
    set('signupUsecases', form.signupUsecases.includes(useCase) ? form.signupUsecases.filter((u) => u !== useCase) : [...form.signupUsecases, useCase]);

  return (
    <StepFrame
      title="Tell us about you"
      description="This helps us shape Spyglass around the way your team works."
      onBack={onBack}
      actions={<Button type="submit" form={formId} variant="primary" loading={saving}>Next</Button>}
    >
      <form id={formId} className="details-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="details-grid">
          <TextField label="First name" autoComplete="given-name" value={form.firstName} onChange={(e) => set('firstName', e.target.value)} error={errors.firstName} />
          <TextField label="Last name" autoComplete="family-name" value={form.lastName} onChange={(e) => set('lastName', e.target.value)} error={errors.lastName} />
          <TextField label="Company" autoComplete="organization" value={form.company} onChange={(e) => set('company', e.target.value)} error={errors.company} />
          <SelectField label="Company size" value={form.companySize} onChange={(v) => set('companySize', v)} error={errors.companySize}>
            {ONBOARDING_COMPANY_SIZES.map((size) => <option key={size} value={size}>{size}</option>)}
          </SelectField>
          <SelectField label="Role" value={form.role} onChange={(v) => set('role', v)} error={errors.role}>
            {ONBOARDING_ROLES.map((role) => <option key={role} value={role}>{ROLE_LABELS[role]}</option>)}
          </SelectField>
          <SelectField label="How did you hear about us?" value={form.signupSource} onChange={(v) => set('signupSource', v)} error={errors.signupSource}>
            {ONBOARDING_SOURCES.map((source) => <option key={source} value={source}>{SOURCE_LABELS[source]}</option>)}
          </SelectField>
        </div>
        <fieldset className="details-usecases" aria-invalid={errors.signupUsecases ? true : undefined}>
          <legend className="field-label">What will you use Spyglass for?</legend>
          <div className="details-chips">
            {ONBOARDING_USE_CASES.map((useCase) => (
              <label key={useCase} className={`details-chip${form.signupUsecases.includes(useCase) ? ' is-checked' : ''}`}>
                <input type="checkbox" checked={form.signupUsecases.includes(useCase)} onChange={() => toggleUseCase(useCase)} />
                {USE_CASE_LABELS[useCase]}
              </label>
            ))}
          </div>
          {errors.signupUsecases && <ul className="field-error"><li>{errors.signupUsecases}</li></ul>}
        </fieldset>
      </form>
    </StepFrame>
  );
}

function SelectField({ label, value, onChange, error, children }: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="field">
      <div className="field-label-row"><label className="field-label" htmlFor={id}>{label}</label></div>
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}>
        <option value="">Select…</option>
        {children}
      </select>
      {error && <ul className="field-error" id={`${id}-error`}><li>{error}</li></ul>}
    </div>
  );
}
