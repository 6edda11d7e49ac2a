import type { DemoGuide } from './types.ts';

const HUE = 210;

export const COMPRESSOR_GUIDES: DemoGuide[] = [
  {
    key: 'compressor-belt',
    title: 'Replace the Drive Belt on a 60-Gallon Air Compressor',
    category: 'Air Compressors',
    subject: 'Drive Belt',
    type: 'replacement',
    difficulty: 'Moderate',
    minutes: [45, 75],
    summary: 'Swap a worn or glazed V-belt on a two-stage, belt-driven 60-gallon shop compressor and set its tension.',
    intro:
      'A slipping drive belt makes the compressor run longer to reach cut-out pressure, ' +
      'heats the pump and wears the pulleys. ' +
      'Replace the belt when it is glazed, cracked, frayed, or when it squeals at start-up even after tensioning.\n\n' +
      'This guide covers the common two-stage cast-iron pump with a 5 HP motor on a sliding base. ' +
      'Read the **lockout/tagout** prerequisite first: ' +
      'the tank stores enough energy to hurt you even with the power off.',
    conclusion:
      'Run the compressor through two full cycles and watch the belt. ' +
      'Recheck the tension after the first 50 hours of running: ' +
      'new belts stretch as they seat.\n\nLog the belt part number ' +
      "and the measured deflection on the unit's maintenance card.",
    flags: ['DANGER', 'GUIDE_STARRED'],
    parts: [
      ['V-belt, AX-section (see old belt for length)', 1, 'Match the cross-section and length printed on the old belt'],
    ],
    tools: [
      ['Socket set, 1/2 in and 9/16 in', 1],
      ['Torque wrench, 10-80 ft-lb', 1],
      ['Straightedge, 24 in', 1],
      ['Belt tension gauge', 1, 'A ruler and a spring scale work too'],
    ],
    prereqs: ['lockout'],
    documents: ['compressor-log'],
    tags: ['compressor', 'belt', 'drive'],
    hue: HUE,
    steps: [
      {
        title: 'Lock out the compressor and bleed the tank',
        pictures: ['Disconnect switch', 'Tank drain valve'],
        lines: [
          [
            'black',
            'Switch the compressor off at the pressure switch, ' +
              'then open the wall disconnect and apply your lock and tag.',
          ],
          ['red', 'The tank can hold up to 175 psi. Never work on the drive with pressure in the tank.'],
          ['black', 'Open the tank drain valve and let the tank bleed down to **0 psi** on the tank gauge.'],
          [
            'icon_note',
            'Leave the drain valve open until the job is finished so the pressure switch cannot start the motor.',
            1,
          ],
        ],
      },
      {
        title: 'Remove the belt guard',
        pictures: ['Belt guard bolts'],
        lines: [
          ['black', 'Remove the four bolts that hold the belt guard to the pump bracket and the motor base.'],
          ['black', 'Lift the guard straight up and away from the flywheel.'],
          ['icon_reminder', 'Put the bolts in a tray: two of them are longer and go in the lower holes.', 1],
        ],
      },
      {
        title: 'Inspect the old belt',
        pictures: ['Glazed belt', 'Cracked belt'],
        lines: [
          [
            'black',
            'Look along the whole belt for glazing (a shiny, hard side wall), cracks across the ribs and frayed edges.',
          ],
          ['orange', 'Black dust inside the guard means the belt was slipping: check the pulley alignment in step 6.'],
          ['black', 'Write down the part number printed on the back of the belt.'],
        ],
        form: [{ type: 'Text Input', label: 'Part number printed on the old belt', placeholder: 'e.g. AX51' }],
      },
      {
        title: 'Loosen the motor mount bolts',
        pictures: ['Motor slide base'],
        lines: [
          ['black', 'Loosen the four nuts that clamp the motor to its slide base, about two turns each.'],
          ['black', 'Back off the tensioning screw at the end of the base.'],
          ['black', 'Slide the motor toward the pump until the belt is slack.'],
          [
            'yellow',
            'The motor weighs about 90 lb. Push it with your hip or a pry bar on the base, not by the fan cover.',
            1,
          ],
        ],
      },
      {
        title: 'Remove the old belt',
        pictures: ['Belt off the flywheel'],
        lines: [
          ['black', 'Roll the belt off the motor pulley first, then off the flywheel.'],
          ['red', 'Never roll a belt on or off by turning the flywheel with your fingers in the groove.'],
          ['black', 'Wipe both pulley grooves clean with a dry rag.'],
        ],
      },
      {
        title: 'Check the pulley alignment',
        pictures: ['Straightedge across pulleys', 'Alignment gap'],
        lines: [
          ['black', 'Lay the straightedge across the face of the flywheel so it reaches the motor pulley.'],
          ['black', 'The straightedge should touch the flywheel rim at two points and the motor pulley face evenly.'],
          ['icon_caution', 'A gap of more than 1/16 in means the pulleys are misaligned.'],
          ['black', 'Loosen the motor pulley set screw and slide the pulley on its shaft until the gap closes.', 1],
          ['black', 'Tighten the set screw on the key, not on the round of the shaft.', 2],
        ],
      },
      {
        title: 'Install the new belt',
        pictures: ['New belt seated'],
        lines: [
          ['black', 'Fit the new belt into the flywheel groove first, then over the motor pulley.'],
          ['black', 'Check that the belt sits fully in both grooves and is not twisted.'],
        ],
      },
      {
        title: 'Set the belt tension',
        pictures: ['Measuring deflection', 'Motor base nuts'],
        lines: [
          ['black', 'Turn the tensioning screw to slide the motor away from the pump.'],
          ['black', 'Press the belt midway between the pulleys with about 5 lb of force.'],
          ['green', 'Correct tension gives **12 to 13 mm** (1/2 in) of deflection.', 1],
          ['black', 'Tighten the four motor nuts to 25 ft-lb and measure the deflection again.'],
        ],
        form: [{ type: 'Numeric Input', label: 'Measured belt deflection (mm)', placeholder: '12' }],
      },
      {
        title: 'Reinstall the guard and test run',
        pictures: ['Guard reinstalled'],
        lines: [
          ['black', 'Refit the belt guard with all four bolts.'],
          ['red', 'Never run the compressor without the belt guard.'],
          ['black', 'Close the tank drain, remove your lock and tag, and close the disconnect.'],
          ['black', 'Let the compressor fill to cut-out pressure and listen for squeal or slap from the belt.'],
          [
            'light_blue',
            'A short chirp at start-up is normal for a new belt; a squeal that lasts means the tension is too low.',
            1,
          ],
        ],
        form: [{ type: 'Checkbox', label: 'Belt guard reinstalled with all four bolts tight', placeholder: '0' }],
      },
    ],
  },
  {
    key: 'compressor-drain',
    title: 'Drain and Inspect the Air Compressor Tank',
    category: 'Air Compressors',
    subject: 'Receiver Tank',
    type: 'maintenance',
    difficulty: 'Easy',
    minutes: [15, 25],
    summary: 'Drain condensate from the receiver tank, look for rust in what comes out, and test the drain valve.',
    intro:
      'Compressing air squeezes the water out of it, and that water collects in the bottom of the tank. ' +
      'Left there, it rusts the tank from the inside until the steel is too thin to hold pressure.\n\n' +
      'Drain the tank at the end of every shift. ' +
      "Once a week, follow this guide to inspect what comes out and record the tank's condition.",
    conclusion:
      'Record the condition on the maintenance card. Rusty water two weeks in a ' +
      'row means the tank needs an internal inspection by a certified inspector.',
    flags: [],
    parts: [],
    tools: [
      ['Bucket, 2 gal', 1],
      ['Safety glasses', 1],
      ['Flashlight', 1],
    ],
    documents: ['compressor-log'],
    tags: ['compressor', 'tank', 'daily check'],
    hue: HUE + 10,
    steps: [
      {
        title: 'Reduce the tank pressure',
        pictures: ['Tank gauge'],
        lines: [
          ['black', 'Switch the compressor off at the pressure switch.'],
          ['black', 'Open an air tool coupling or a blow gun until the tank gauge reads about **10 psi**.'],
          ['icon_note', 'A little pressure pushes the water out; full pressure blasts it everywhere.', 1],
        ],
      },
      {
        title: 'Open the drain valve',
        video: true,
        lines: [
          ['black', 'Put on safety glasses and place the bucket under the drain valve.'],
          ['black', 'Open the drain valve slowly, a quarter turn at a time.'],
          ['orange', 'The spray is oily and can carry rust flakes. Keep your face away from the valve.'],
        ],
      },
      {
        title: 'Inspect the condensate',
        pictures: ['Clear condensate', 'Rusty condensate'],
        lines: [
          ['black', 'Let the water run until only air comes out.'],
          ['black', 'Look at the water in the bucket with the flashlight.'],
          ['green', 'Clear or milky water is normal.', 1],
          ['yellow', 'Oily water means the pump is passing oil: check the oil level and the rings.', 1],
          ['red', 'Rust-coloured water or flakes mean internal corrosion. Report it the same day.', 1],
        ],
        form: [
          {
            type: 'Radios',
            label: 'What did the condensate look like?',
            options: ['Clear', 'Milky', 'Oily', 'Rusty', 'Flakes or sludge'],
          },
          {
            type: 'Text Area',
            label: 'Notes on the tank and drain',
            textarea: 'Anything unusual: smell, colour, amount of water',
          },
        ],
      },
      {
        title: 'Test and close the drain valve',
        pictures: ['Drain valve closed'],
        lines: [
          ['black', 'Close the drain valve hand tight.'],
          ['black', 'Start the compressor and let it reach cut-out pressure.'],
          ['black', 'Listen and feel at the drain for leaks.'],
          ['icon_caution', 'A drain valve that leaks when closed must be replaced; never plug it.', 1],
        ],
        form: [{ type: 'Image', label: 'Photo of the drain valve after closing' }],
      },
      {
        title: 'Check the tank and feet for corrosion',
        pictures: ['Tank feet', 'Tank weld seam'],
        lines: [
          ['black', 'Walk around the tank and look at the welds, the feet and the bottom of the shell.'],
          ['black', 'Bubbled paint or pitting near the bottom seam is a warning sign.'],
          ['violet', 'Photograph anything that looks worse than last week for comparison.', 1],
        ],
      },
      {
        title: 'Dispose of the condensate',
        pictures: ['Oil-water separator'],
        lines: [
          ['black', "Pour the condensate into the shop's oil-water separator, not down a drain."],
          ['icon_reminder', 'Compressor condensate contains oil and is regulated waste in most places.'],
        ],
      },
    ],
  },
  {
    key: 'compressor-oil',
    title: 'Change the Oil in a Two-Stage Compressor Pump',
    category: 'Air Compressors',
    subject: 'Pump Oil',
    type: 'maintenance',
    difficulty: 'Easy',
    minutes: [20, 30],
    summary: 'Drain and refill the crankcase oil of a splash-lubricated cast-iron compressor pump.',
    intro:
      'Splash-lubricated pumps need fresh oil every 500 hours or three months, whichever comes first. ' +
      'Use only non-detergent compressor oil: detergent motor oil foams and carries over into the air lines.',
    conclusion:
      'Write the date and the hour-meter reading on a tag on the oil fill cap so the next change is easy to schedule.',
    flags: [],
    parts: [['Compressor oil, ISO 100 non-detergent', 1, 'About 40 oz for most 60-gallon pumps']],
    tools: [
      ['Drain pan', 1],
      ['Adjustable wrench', 1],
      ['Funnel with flexible spout', 1],
      ['Shop rags', 4],
    ],
    prereqs: ['lockout'],
    tags: ['compressor', 'oil', 'lubrication'],
    hue: HUE + 20,
    steps: [
      {
        title: 'Run the pump to warm the oil',
        pictures: ['Pump running'],
        lines: [
          ['black', 'Run the compressor for 5 minutes: warm oil drains faster and carries more dirt out with it.'],
          ['black', 'Then lock out the compressor and bleed the tank as the prerequisite guide shows.'],
        ],
      },
      {
        title: 'Remove the drain plug',
        pictures: ['Crankcase drain plug'],
        lines: [
          ['black', 'Place the drain pan under the crankcase drain plug.'],
          ['black', 'Remove the oil fill cap first so the oil drains without glugging.'],
          ['black', 'Unscrew the drain plug and let the oil drain completely.'],
          ['orange', 'The pump head is hot after running. Work from below and wear gloves.', 1],
        ],
      },
      {
        title: 'Inspect the old oil',
        pictures: ['Old oil sample'],
        lines: [
          ['black', 'Look at the oil in the pan.'],
          ['yellow', 'Milky oil means water in the crankcase: the pump runs too short or the room is very humid.', 1],
          ['red', 'Metal glitter means bearing wear. Stop and report it before refilling.', 1],
        ],
      },
      {
        title: 'Refit the drain plug',
        pictures: ['Drain plug with sealant'],
        lines: [
          ['black', 'Wrap the drain plug threads with two turns of PTFE tape.'],
          ['black', 'Screw the plug in snug. Do not overtighten: the crankcase is cast iron and cracks.'],
        ],
      },
      {
        title: 'Fill with fresh oil',
        pictures: ['Filling the crankcase', 'Sight glass'],
        lines: [
          ['black', 'Pour fresh oil slowly through the fill port.'],
          ['black', 'Stop when the oil reaches the centre dot of the sight glass.'],
          ['icon_note', 'Wait a minute for the oil to settle before reading the sight glass.', 1],
        ],
      },
      {
        title: 'Check for leaks',
        pictures: ['Clean crankcase'],
        lines: [
          ['black', 'Refit the fill cap, wipe the crankcase clean and return the compressor to service.'],
          ['black', 'After 10 minutes of running, check the drain plug for drips.'],
        ],
      },
      {
        title: 'Recycle the old oil',
        pictures: ['Used oil drum'],
        lines: [['black', 'Pour the used oil into the used-oil drum. Never mix it with solvents or coolant.']],
      },
    ],
  },
  {
    key: 'relief-valve',
    title: 'Test and Replace the Safety Relief Valve on an Air Compressor',
    category: 'Air Compressors',
    subject: 'Safety Relief Valve',
    type: 'repair',
    difficulty: 'Difficult',
    minutes: [30, 60],
    summary: 'Prove that the ASME safety valve opens, and replace it when it is stuck, leaking or the wrong rating.',
    intro:
      'The safety relief valve is the last thing between a failed pressure switch and a tank rupture. ' +
      "It must open at or below the tank's rated pressure and close again cleanly.\n\n" +
      'Test it monthly by pulling its ring. Replace it if it does not open, does not reseat, or leaks.',
    conclusion:
      'A new valve must carry the ASME stamp and a set pressure at or below the rating on the tank data plate. ' +
      'Never replace a safety valve with a plug or a valve with a higher setting.',
    flags: ['DEATH', 'DANGER'],
    parts: [['ASME safety relief valve, 1/4 in NPT, set at 200 psi or below', 1, 'Match the tank data plate']],
    tools: [
      ['Open-end wrench, 3/4 in', 1],
      ['PTFE thread tape', 1],
      ['Hearing protection', 1],
      ['Safety glasses', 1],
    ],
    prereqs: ['lockout'],
    tags: ['compressor', 'safety', 'pressure', 'valve'],
    hue: HUE - 20,
    steps: [
      {
        title: 'Read the tank data plate',
        pictures: ['Tank data plate'],
        lines: [
          ['black', 'Find the data plate on the tank and note the maximum allowable working pressure (MAWP).'],
          ['black', 'Compare it with the set pressure stamped on the safety valve.'],
          ['red', 'If the valve is set higher than the MAWP, take the compressor out of service now.'],
        ],
      },
      {
        title: 'Test the valve under pressure',
        pictures: ['Pulling the valve ring'],
        lines: [
          ['black', 'With the tank at cut-out pressure, put on hearing protection and safety glasses.'],
          ['black', 'Pull the valve ring firmly for two seconds and let go.'],
          ['green', 'A loud blast of air that stops when you let go means the valve works.', 1],
          ['red', 'No air, or air that keeps leaking after you let go, means the valve must be replaced.', 1],
        ],
      },
      {
        title: 'Lock out and empty the tank',
        pictures: ['Gauge at zero'],
        lines: [
          ['black', 'Lock out the compressor and open the tank drain.'],
          ['red', 'Confirm 0 psi on the tank gauge **and** by pulling the safety valve ring. Never trust one gauge.'],
        ],
      },
      {
        title: 'Remove the old valve',
        pictures: ['Wrench on valve hex'],
        lines: [
          ['black', 'Put the wrench on the hex of the valve body, never on the cap or the ring.'],
          ['black', 'Hold the fitting it screws into with a second wrench and unscrew the valve.'],
        ],
      },
      {
        title: 'Clean the port',
        pictures: ['Clean threads'],
        lines: [
          ['black', 'Clean the old tape out of the port threads with a pick and a rag.'],
          ['icon_caution', 'Do not let tape shreds fall into the tank: they can jam the new valve.'],
        ],
      },
      {
        title: 'Install the new valve',
        pictures: ['New valve', 'Tape on threads'],
        lines: [
          ['black', 'Wrap the valve threads with three turns of PTFE tape, clockwise seen from the thread end.'],
          ['black', 'Leave the first thread bare.', 1],
          ['black', 'Screw the valve in by hand, then one to two turns with the wrench on the hex.'],
          ['black', 'Point the outlet away from where people stand.'],
        ],
      },
      {
        title: 'Pressure the tank and check for leaks',
        pictures: ['Soapy water on fitting'],
        lines: [
          ['black', 'Close the drain, remove your lock and run the compressor to cut-out.'],
          ['black', 'Brush soapy water on the valve threads and outlet. Bubbles mean a leak.'],
        ],
      },
      {
        title: 'Test the new valve',
        pictures: ['Valve test'],
        lines: [
          ['black', 'Pull the ring of the new valve as in step 2.'],
          ['green', 'It must blow and reseat cleanly.'],
          ['violet', "Record the new valve's set pressure and the date on the maintenance card.", 1],
        ],
      },
    ],
  },
];
