/// The shaft check's fitted weights (`ShaftCheck.featureNames` order, then the
/// intercept), as `Training/shaft_check.py fit` prints them: fitted on the
/// records of 120 realistic 12-megapixel photos and 100 classic 1280x960 ones
/// (seeds 7400000…, `--shaft-check on --shaft-keep 0`; the commands in its docstring).
enum ShaftCheckWeights {
  static let shipped: [Double] = [0.664448, 0.00322894, -0.794132, -0.0426066, 0.783523, 0.392652, -0.336585, 0.390627, 0.000657921, -0.481177, -0.262883, 0.236375, 2.45393, 3.39876, 1.10165]
}
