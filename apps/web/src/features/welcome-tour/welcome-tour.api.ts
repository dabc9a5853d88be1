import { TOUR_MESSAGES, type WelcomeTour } from '@spyglass/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { forgetTourProgress, getWelcomeTours, onTourStepCompleted, saveTourStep, saveWelcomeTours } from '../../lib/tour-events';

export type TourId = WelcomeTour['id'];
export const WELCOME_TOUR_QUERY_KEY = ['welcome-tour'] as const;
/** Steps the server completes (a log from a device...) show up while the page is open. */
const REFRESH_MS = 2000;

export function useWelcomeTours() {
  const queryClient = useQueryClient();
  useEffect(() => onTourStepCompleted((tour) => {
    queryClient.setQueryData<WelcomeTour[]>(WELCOME_TOUR_QUERY_KEY, (tours) => tours?.map((t) => (t.id === tour.id ? tour : t)));
  }), [queryClient]);
  return useQuery({ queryKey: WELCOME_TOUR_QUERY_KEY, queryFn: getWelcomeTours, refetchInterval: REFRESH_MS });
}

/** Starts a tour over: every step pending again (they complete themselves again as the user does them). */
export function useResetTour() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tour: WelcomeTour) => saveWelcomeTours([{ id: tour.id, steps: tour.steps.map((s) => ({ id: s.id, status: 'pending', completedAt: null })) }]),
    onError: () => toast.error(TOUR_MESSAGES.saveFailed),
    onSettled: () => {
      forgetTourProgress();
      void queryClient.invalidateQueries({ queryKey: WELCOME_TOUR_QUERY_KEY });
    },
  });
}

/** Spec 000 §4.8: the toggle flips a step optimistically and reverts on failure. */
export function useToggleTourStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tourId, stepId, completed }: { tourId: TourId; stepId: string; completed: boolean }) => saveTourStep(tourId, stepId, completed),
    onMutate: async ({ tourId, stepId, completed }) => {
      await queryClient.cancelQueries({ queryKey: WELCOME_TOUR_QUERY_KEY });
      const before = queryClient.getQueryData<WelcomeTour[]>(WELCOME_TOUR_QUERY_KEY);
      queryClient.setQueryData<WelcomeTour[]>(WELCOME_TOUR_QUERY_KEY, (tours) => tours?.map((tour) => (tour.id !== tourId ? tour : {
        ...tour,
        steps: tour.steps.map((step) => (step.id !== stepId ? step : {
          ...step, status: completed ? 'completed' as const : 'pending' as const, completedAt: completed ? new Date().toISOString() : null,
        })),
      })));
      return { before };
    },
    onError: (_error, _vars, context) => {
      queryClient.setQueryData(WELCOME_TOUR_QUERY_KEY, context?.before);
      toast.error(TOUR_MESSAGES.stepFailed);
    },
    onSettled: () => {
      forgetTourProgress();
      void queryClient.invalidateQueries({ queryKey: WELCOME_TOUR_QUERY_KEY });
    },
  });
}
