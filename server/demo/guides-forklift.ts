import type { DemoGuide } from './types.ts';

const HUE = 48;

export const FORKLIFT_GUIDES: DemoGuide[] = [
  {
    key: 'forklift-inspection',
    title: 'Forklift Daily Pre-Shift Inspection',
    category: 'Forklifts',
    subject: 'Pre-Shift Inspection',
    type: 'maintenance',
    difficulty: 'Very easy',
    minutes: [10, 15],
    summary: 'The walk-around and operational checks every operator does before the first lift of a shift.',
    intro:
      'A forklift that fails on the floor fails with a load in the air. ' +
      'The pre-shift check takes ten minutes and is required ' +
      'before each shift the truck is used.\n\n' +
      'Do the visual checks with the truck off and the forks on the floor, ' +
      'then the operational checks from the seat. ' +
      'Any **red** item takes the truck out of service: tag it and tell your supervisor.',
    conclusion:
      'Sign the checklist. A truck with a failed item stays tagged out until ' +
      'a qualified technician has repaired it and signed the repair off.',
    flags: ['DEATH', 'GUIDE_STARRED'],
    parts: [],
    tools: [
      ['Pre-shift checklist', 1],
      ['Tire pressure gauge (pneumatic tires only)', 1],
      ['Out of service tag', 1],
    ],
    documents: ['forklift-checklist'],
    tags: ['forklift', 'daily check', 'safety'],
    hue: HUE,
    steps: [
      {
        title: 'Identify the truck',
        pictures: ['Truck number plate'],
        lines: [
          ['black', 'Find the truck number on the counterweight and write it on the checklist.'],
          ['black', 'Read the hour meter on the dash.'],
        ],
        form: [
          { type: 'Text Input', label: 'Truck number', placeholder: 'e.g. FL-07' },
          { type: 'Numeric Input', label: 'Hour meter reading', placeholder: '0' },
        ],
      },
      {
        title: 'Look for leaks under the truck',
        pictures: ['Floor under truck'],
        lines: [
          ['black', 'Look at the floor where the truck was parked overnight.'],
          ['yellow', 'A few drops of water from the LP regulator are normal.', 1],
          ['red', 'Puddles of hydraulic oil, engine oil or coolant: take the truck out of service.', 1],
        ],
      },
      {
        title: 'Check the tires and wheels',
        pictures: ['Tire wear line', 'Wheel nuts'],
        lines: [
          ['black', 'Walk around the truck and look at each tire.'],
          ['black', 'Cushion tires: the rubber must be above the wear line and free of chunks.', 1],
          ['black', 'Pneumatic tires: check the pressure against the plate on the truck.', 1],
          ['black', 'Check that no wheel nuts are missing or loose.'],
        ],
      },
      {
        title: 'Inspect the forks',
        pictures: ['Fork heel', 'Fork locking pin'],
        lines: [
          ['black', 'Look at each fork for cracks, especially at the heel where the blade meets the shank.'],
          ['black', 'Check that both fork locking pins are down and engaged.'],
          ['red', 'A cracked or bent fork can drop its load without warning. Never use it.'],
        ],
        form: [
          {
            type: 'Select',
            label: 'Fork condition',
            options: ['Good', 'Worn: schedule a fork inspection', 'Cracked or bent: out of service'],
          },
        ],
      },
      {
        title: 'Inspect the mast and chains',
        pictures: ['Lift chains', 'Mast rollers'],
        lines: [
          ['black', 'Look at both lift chains for rust, kinks and stiff links.'],
          ['black', 'Check that the chain anchor pins have their cotter pins.'],
          ['black', 'Look at the mast rails for gouges and the rollers for flat spots.'],
        ],
      },
      {
        title: 'Check the hydraulic hoses',
        pictures: ['Mast hoses'],
        lines: [
          ['black', 'Follow the hoses up the mast and look for wet spots, cracks and chafing.'],
          ['red', 'Never feel for a hydraulic leak with your hand. A pinhole leak can inject oil under the skin.'],
        ],
      },
      {
        title: 'Check the fluid levels',
        pictures: ['Hydraulic dipstick', 'Engine oil dipstick'],
        lines: [
          ['black', 'With the forks down, check the hydraulic oil on the dipstick under the floor plate.'],
          ['black', 'Check the engine oil and the coolant level in the overflow bottle.'],
          ['icon_note', 'Electric trucks: check the battery water level and the cable connectors instead.', 1],
        ],
      },
      {
        title: 'Check the LP tank and its mounting',
        pictures: ['LP tank bracket'],
        lines: [
          ['black', 'Check that the tank is locked in its bracket with the locating pin in the hole.'],
          ['black', 'Smell for gas at the tank valve and the hose connection.'],
          ['red', 'If you smell gas, close the tank valve, do not start the truck and report it.', 1],
        ],
      },
      {
        title: 'Check the seat belt and overhead guard',
        pictures: ['Seat belt buckle'],
        lines: [
          ['black', 'Buckle and unbuckle the seat belt. It must latch and retract.'],
          ['black', 'Look at the overhead guard for cracks and missing bolts.'],
        ],
        form: [{ type: 'Checkbox', label: 'Seat belt latches and retracts', placeholder: '0' }],
      },
      {
        title: 'Test the horn, lights and alarm',
        pictures: ['Dash controls'],
        lines: [
          ['black', 'Start the truck and sound the horn.'],
          ['black', 'Switch on the headlights and the strobe, and select reverse to check the back-up alarm.'],
          ['violet', 'Record a short video of the test if your site asks for one.', 1],
        ],
        form: [{ type: 'Video', label: 'Video of the horn, lights and back-up alarm test' }],
      },
      {
        title: 'Test the brakes',
        pictures: ['Brake test lane'],
        lines: [
          ['black', 'Drive forward slowly in a clear aisle and press the service brake. The truck must stop straight.'],
          ['black', 'Set the parking brake on the ramp: the truck must not creep.'],
        ],
        form: [{ type: 'Checkbox', label: 'Service and parking brakes hold', placeholder: '0' }],
      },
      {
        title: 'Test the lift, tilt and steering',
        pictures: ['Mast at full lift'],
        lines: [
          ['black', 'Raise the forks to full height and lower them. The mast must move smoothly and not drift.'],
          ['black', 'Tilt the mast fully forward and back.'],
          ['black', 'Turn the steering lock to lock.'],
          ['orange', 'Jerky lift or noisy steering is not an out-of-service item, but report it today.', 1],
        ],
      },
      {
        title: 'Sign the checklist',
        pictures: ['Signed checklist'],
        lines: [
          ['black', 'Tick every item, sign and date the checklist and leave it in the holder on the truck.'],
          [
            'icon_reminder',
            'A failed item means an out of service tag on the steering wheel and the key to your supervisor.',
          ],
        ],
        // Filled by the technician's sign-off at Finish (issue 28), which the site keeps with the entry.
        form: [{ type: 'Text Input', label: 'Signed off by', placeholder: 'filled in when you sign off at Finish' }],
      },
    ],
  },
  {
    key: 'forklift-hose',
    title: 'Replace a Forklift Mast Hydraulic Hose',
    category: 'Forklifts',
    subject: 'Hydraulic Hose',
    type: 'replacement',
    difficulty: 'Difficult',
    minutes: [60, 120],
    summary: 'Replace a leaking lift-cylinder hose on a counterbalance forklift mast without dropping the carriage.',
    intro:
      'Mast hoses flex every time the carriage moves and eventually crack at the crimped ends. ' +
      'The job itself is simple; doing it safely is not. ' +
      'The carriage must be **blocked**, not held up by hydraulics, ' +
      'and the system pressure must be relieved before any fitting is cracked.',
    conclusion:
      'Cycle the mast ten times to full height, ' +
      'check the new hose at every height for rubbing, and top up the hydraulic oil. ' +
      'Recheck the fittings for weeping after the first shift.',
    flags: ['DEATH', 'DANGER'],
    parts: [
      ['Hydraulic hose assembly, 3/8 in, 2-wire, JIC ends', 1, 'Order by the part number crimped on the old hose'],
      ['Hydraulic oil, AW 32', 1, 'About 2 qt to top up'],
      ['O-rings for the JIC adapters', 2],
    ],
    tools: [
      ['Flare-nut wrenches, 11/16 and 3/4 in', 1],
      ['Mast blocks or stands rated for the carriage', 2],
      ['Drain pan', 1],
      ['Caps and plugs for open fittings', 1],
      ['Face shield', 1],
    ],
    prereqs: ['lockout', 'forklift-inspection'],
    tags: ['forklift', 'hydraulics', 'hose'],
    hue: HUE - 15,
    steps: [
      {
        title: 'Park and lower the forks',
        pictures: ['Truck parked'],
        lines: [
          ['black', 'Park on level ground, set the parking brake and lower the forks fully.'],
          ['black', 'Switch off and remove the key.'],
        ],
      },
      {
        title: 'Block the carriage',
        pictures: ['Blocks under carriage'],
        lines: [
          [
            'black',
            'If the hose to replace feeds the lift cylinders, raise the carriage about 12 in and set blocks under it.',
          ],
          ['black', 'Lower the carriage onto the blocks until the chains go slack.'],
          ['red', 'Never work under a carriage held up only by the hydraulics.'],
        ],
      },
      {
        title: 'Relieve the system pressure',
        pictures: ['Control levers'],
        lines: [
          ['black', 'With the engine off and the key on, move every hydraulic lever through its full travel twice.'],
          ['red', 'Trapped pressure sprays oil hard enough to cut skin. Wear the face shield from here on.'],
        ],
      },
      {
        title: 'Lock out the truck',
        pictures: ['Battery disconnect'],
        lines: [
          ['black', 'Disconnect the battery negative cable and hang your lock and tag on it.'],
          ['black', 'Close the LP tank valve on LP trucks.'],
        ],
      },
      {
        title: 'Find the leaking hose',
        pictures: ['Wet hose end'],
        lines: [
          ['black', 'Clean the hoses with a rag and look for fresh oil.'],
          ['icon_note', 'The crimped ends and the places where a hose rubs on the mast are the usual suspects.', 1],
          ['black', "Mark the hose's routing with paint or tape before removing it."],
        ],
      },
      {
        title: 'Disconnect the lower end',
        pictures: ['Lower fitting'],
        lines: [
          ['black', 'Put the drain pan under the lower fitting.'],
          ['black', 'Hold the adapter with one flare-nut wrench and loosen the hose nut with the other.'],
          ['black', 'Cap the adapter at once.', 1],
        ],
      },
      {
        title: 'Disconnect the upper end',
        pictures: ['Upper fitting at cylinder'],
        lines: [
          ['black', 'Loosen the upper fitting the same way and plug the cylinder port.'],
          ['black', 'Remove the hose clamps along the mast and pull the hose out.'],
        ],
      },
      {
        title: 'Compare the new hose',
        pictures: ['Old and new hose'],
        lines: [
          ['black', 'Lay the new hose beside the old one. Length, fittings and angles must match.'],
          ['yellow', 'A hose that is 1 in too short will pull tight at full lift and fail within days.', 1],
        ],
      },
      {
        title: 'Install the new hose',
        pictures: ['Hose routed', 'Clamps refitted'],
        lines: [
          ['black', 'Route the new hose along the marked path and refit the clamps loosely.'],
          ['black', 'Fit new O-rings to the adapters and connect both ends hand tight.'],
          ['black', 'Tighten each JIC nut one flat past snug while holding the adapter.'],
        ],
      },
      {
        title: 'Restore power and bleed',
        pictures: ['Hydraulic reservoir'],
        lines: [
          ['black', 'Reconnect the battery, open the LP valve and start the truck.'],
          ['black', 'Raise the carriage off the blocks and remove them.'],
          ['black', 'Cycle the lift to full height slowly five times to purge the air.'],
        ],
      },
      {
        title: 'Check for leaks and top up',
        pictures: ['Dipstick full mark'],
        lines: [
          ['black', 'Check both fittings with the carriage at full height.'],
          ['black', 'With the forks down, top up the hydraulic oil to the full mark.'],
          ['green', 'Dry fittings after ten full cycles mean the job is done.'],
        ],
      },
    ],
  },
  {
    key: 'forklift-lp-tank',
    title: 'Change the LP Tank on a Forklift',
    category: 'Forklifts',
    subject: 'LP Tank',
    type: 'technique',
    difficulty: 'Easy',
    minutes: [5, 10],
    summary: 'Swap an empty propane cylinder for a full one safely, outdoors or in the designated change area.',
    intro:
      'Propane is heavier than air and collects in low places. ' +
      'Change tanks only in the designated area, away from drains, pits and ignition sources, ' +
      'and wear gloves: liquid propane causes frostbite in seconds.',
    conclusion:
      'Store the empty tank with its valve closed, ' +
      'on its side with the relief valve up, in the cage for the supplier to collect.',
    flags: ['DANGER'],
    parts: [['Full LP cylinder, 33 lb, forklift (liquid draw)', 1]],
    tools: [
      ['Leather or insulated gloves', 1],
      ['Safety glasses', 1],
      ['Leak detector solution', 1, 'A soapy water spray does the same', 'optional'],
    ],
    tags: ['forklift', 'propane', 'fuel'],
    hue: HUE + 15,
    steps: [
      {
        title: 'Run the engine until it stops',
        pictures: ['Closing the tank valve'],
        lines: [
          ['black', 'Park in the tank change area and set the parking brake.'],
          ['black', 'Close the tank valve and let the engine run until it stalls: this empties the fuel line.'],
          ['black', 'Turn off the key.'],
        ],
      },
      {
        title: 'Disconnect the fuel hose',
        pictures: ['Hose coupling'],
        lines: [
          ['black', 'Put on gloves and safety glasses.'],
          ['black', 'Unscrew the coupling nut by hand. Expect a short hiss of trapped gas.'],
          ['orange', 'Never use a wrench on the coupling: it is made to be hand tight.', 1],
        ],
      },
      {
        title: 'Remove the empty tank',
        pictures: ['Bracket latch'],
        lines: [
          ['black', 'Release the bracket straps and lift the tank off the locating pin.'],
          ['black', 'Lift with your legs; an empty tank weighs about 30 lb.', 1],
        ],
      },
      {
        title: 'Watch: the whole change in one minute',
        embed: {
          html:
            '<iframe src="https://www.example.com/embed/lp-tank-change" width="640" ' +
            'height="360" title="LP tank change" allowfullscreen></iframe>',
          url: 'https://www.example.com/embed/lp-tank-change',
          title: "LP tank change, from the operator's side",
        },
        lines: [['icon_note', "This clip shows steps 2 to 6 from the operator's side of the truck."]],
      },
      {
        title: 'Fit the full tank',
        pictures: ['Locating pin'],
        lines: [
          ['black', 'Check the new tank: no dents, a current date stamp and a fitted O-ring in the valve.'],
          ['black', 'Set the tank on the bracket with the locating pin in its hole.'],
          ['red', 'The pin sets the relief valve at the top. A tank fitted any other way can vent liquid propane.'],
          ['black', 'Fasten both straps.'],
        ],
      },
      {
        title: 'Connect the hose and open the valve',
        pictures: ['Coupling tightened'],
        lines: [
          ['black', 'Thread the coupling on by hand until tight.'],
          ['black', 'Open the tank valve slowly, a full turn.'],
        ],
      },
      {
        title: 'Check for leaks',
        pictures: ['Bubbles on coupling'],
        lines: [
          ['black', 'Spray leak detector on the coupling and the tank valve.'],
          ['red', 'Bubbles mean a leak: close the valve, remove the tank and tag it.', 1],
          ['green', 'No bubbles: start the truck and return to work.', 1],
        ],
      },
    ],
  },
];
